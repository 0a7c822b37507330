// GET /v1beta/models and GET /v1beta/models/{model}: the models this key may call (the same list as
// /v1/models, models.ts), in Gemini's Model shape. A model the list hides is a 404 here too.
import type { FastifyRequest } from 'fastify';
import { ENDPOINT_TYPES } from './resolve';
import { GatewayError, invalidRequest } from './errors';
import type { Gateway } from './gateway';
import { callerModels, outputLimitOf } from './models';
import type { SnapModel } from './snapshot';

/** What the ingress serves for a chat-capable model; other types are listed without methods. */
const CHAT_METHODS = ['generateContent', 'streamGenerateContent', 'countTokens'];
const CHAT_TYPES: readonly number[] = ENDPOINT_TYPES.chat;

/** Google's defaults and bounds for pageSize. */
const PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 1000;

interface GeminiModel {
  name: string;
  baseModelId: string;
  version: string;
  displayName: string;
  description?: string;
  inputTokenLimit?: number;
  outputTokenLimit?: number;
  supportedGenerationMethods: string[];
}

function geminiModel(m: SnapModel): GeminiModel {
  const out: GeminiModel = { name: `models/${m.name}`, baseModelId: m.name, version: '001', displayName: m.name, supportedGenerationMethods: CHAT_TYPES.includes(m.type) ? CHAT_METHODS : [] };
  if (m.remark) out.description = m.remark;
  // Gemini's input limit is the context window; the output limit is what one answer may hold.
  if (m.context_window) out.inputTokenLimit = m.context_window;
  const output = outputLimitOf(m);
  if (output) out.outputTokenLimit = output;
  return out;
}

const queryOf = (request: FastifyRequest) => request.query as Record<string, unknown>;

/** A non-negative integer query parameter, or the default. */
function intParam(request: FastifyRequest, name: string, fallback: number): number {
  const v = queryOf(request)[name];
  if (v === undefined || v === '') return fallback;
  const n = typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : NaN;
  if (Number.isNaN(n)) throw invalidRequest(`${name}: must be a non-negative integer.`, 'invalid_type');
  return n;
}

/** Pages of `pageSize` (default 50, at most 1000); the page token is the next offset. */
export function listGeminiModels(gw: Gateway, request: FastifyRequest) {
  const all = callerModels(gw, request);
  const size = Math.min(intParam(request, 'pageSize', PAGE_SIZE) || PAGE_SIZE, MAX_PAGE_SIZE);
  const from = intParam(request, 'pageToken', 0);
  const models = all.slice(from, from + size).map(geminiModel);
  return from + size < all.length ? { models, nextPageToken: String(from + size) } : { models };
}

/** `models/x` or `x`; the route is a wildcard because catalogue names may hold slashes. */
export function getGeminiModel(gw: Gateway, request: FastifyRequest, id: string): GeminiModel {
  const found = callerModels(gw, request).find((m) => m.name === id);
  if (!found) throw new GatewayError(404, 'model_not_found', `models/${id.slice(0, 200)} is not found for API version v1beta, or you do not have access to it.`);
  return geminiModel(found);
}
