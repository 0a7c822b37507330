// POST /v1beta/models/{model}:countTokens: `{totalTokens}` of `contents` (or of a whole
// `generateContentRequest`), counted as count-tokens.ts says: a Gemini-family route asks its upstream's
// countTokens (hosts without it, and agents whose path override names no generateContent to turn into
// countTokens, get the local count); any other family is counted locally.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { geminiHeaders, geminiUrl } from '../providers/gemini/api';
import { geminiToChatRequest } from '../providers/gemini/ingress';
import { isRecord, type Json } from '../providers/shape';
import { countTokens } from './count-tokens';
import { invalidRequest } from './errors';
import type { Gateway } from './gateway';
import { checkGeminiBody } from './gemini-native';

type Counted = Json & { totalTokens: number };

/** `{contents}` or `{generateContentRequest}`: the request whose prompt is counted. */
function countedRequest(body: unknown): Json {
  if (!isRecord(body)) throw invalidRequest('The request body must be a JSON object.');
  if (body.generateContentRequest !== undefined) return checkGeminiBody(body.generateContentRequest);
  if (body.contents === undefined) throw invalidRequest('contents: or generateContentRequest: is required.', 'invalid_contents');
  return checkGeminiBody({ contents: body.contents });
}

/** The upstream body: a generateContentRequest names the upstream's model too. */
function upstreamBody(body: Json, model: string): Json {
  return isRecord(body.generateContentRequest) ? { ...body, generateContentRequest: { ...body.generateContentRequest, model: `models/${model}` } } : body;
}

export async function countGeminiTokens(gw: Gateway, request: FastifyRequest, reply: FastifyReply, model: string): Promise<Counted> {
  const body = request.body as Json;
  return countTokens<Counted>(gw, request, reply, {
    requested: model,
    chat: geminiToChatRequest(model, countedRequest(body)),
    family: 'gemini',
    request(route) {
      const generate = geminiUrl(route.target, false);
      if (!/:generateContent\b/.test(generate)) return undefined;
      return { url: generate.replace(/:generateContent\b/, ':countTokens'), headers: geminiHeaders(route.target.key), body: JSON.stringify(upstreamBody(body, route.target.model)) };
    },
    read: (json) => (isRecord(json) && typeof json.totalTokens === 'number' ? (json as Counted) : undefined),
    local: (totalTokens) => ({ totalTokens }),
  });
}
