// POST /v1beta/models/{model}:countTokens: `{totalTokens}` of `contents` (or of a whole
// `generateContentRequest`). Like messages-count.ts for Anthropic: admitted, resolved and rate limited
// like a call, so a key counts only for models it may call; but not a call: nothing is reserved,
// charged or logged, and a failed attempt does not count against the key's health.
// - Gemini-family route: the upstream's own countTokens with a key picked like a call's (one other key
//   when the first fails in a way a call would retry). Hosts without it (404/405), and agents whose
//   path override names no generateContent to turn into countTokens, get the local count instead.
// - Any other family: the gateway's count of the converted prompt with the tokenizer the settle uses.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { countChatPrompt } from '../billing/tokens';
import { geminiHeaders, geminiUrl } from '../providers/gemini/api';
import { geminiToChatRequest } from '../providers/gemini/ingress';
import { providers } from '../providers/index';
import { isRecord, type Json } from '../providers/shape';
import type { ChatRequest, UpstreamError } from '../providers/types';
import { classify } from './classify';
import { GatewayError, invalidRequest } from './errors';
import type { Gateway } from './gateway';
import { checkGeminiBody } from './gemini-native';
import { pick, type Route, type Tried } from './pick';
import { badUpstreamBody, withoutKey } from './relay';
import { admitRequest } from './run';
import { shieldMessage } from './shield';
import { UpstreamFailure } from './upstream';

/** A count is cheap to ask again: the first key, then one other at most. */
const MAX_ATTEMPTS = 2;

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

async function upstreamCount(gw: Gateway, route: Route, url: string, body: Json, timeoutMs: number): Promise<{ counted: Counted } | { error: UpstreamError }> {
  let res;
  try {
    res = await gw.upstream.send({ url, headers: geminiHeaders(route.target.key), body: JSON.stringify(upstreamBody(body, route.target.model)) }, { timeoutMs });
  } catch (err) {
    if (err instanceof UpstreamFailure) return { error: err.error };
    throw err;
  }
  if (res.status < 200 || res.status >= 300) {
    const text = withoutKey(route.key, await res.body.text().catch(() => ''));
    return { error: providers.gemini.mapError(res.status, text) };
  }
  const json: unknown = await res.body.json().catch(() => undefined);
  return isRecord(json) && typeof json.totalTokens === 'number' ? { counted: json as Counted } : badUpstreamBody();
}

const localCount = (chat: ChatRequest, route: Route): Counted => ({ totalTokens: countChatPrompt(chat.messages, route.target.model, chat.tools) });

export async function countGeminiTokens(gw: Gateway, request: FastifyRequest, reply: FastifyReply, model: string): Promise<Counted> {
  const body = request.body as Json;
  const chat = geminiToChatRequest(model, countedRequest(body));
  const { traceId, caller, resolution } = await admitRequest(gw, request, reply, { requested: model, endpoint: 'chat', chat });
  const { snapshot } = gw;
  const tried: Tried = { agents: new Set(), keys: new Set() };
  let error: UpstreamError | undefined;
  for (let n = 0; n < MAX_ATTEMPTS; n++) {
    // Smart matching (resolution.smart) is skipped: it costs a model call to save none.
    const route = pick(snapshot, resolution.target, resolution.group, model, tried, undefined, gw.breakers);
    const generate = geminiUrl(route.target, false);
    if (route.family !== 'gemini' || !/:generateContent\b/.test(generate)) return localCount(chat, route);
    const answer = await upstreamCount(gw, route, generate.replace(/:generateContent\b/, ':countTokens'), body, snapshot.sys.base.short_timeout * 1000);
    if ('counted' in answer) return answer.counted;
    error = answer.error;
    if (error.status === 404 || error.status === 405) return localCount(chat, route);
    reply.log.warn({ family: route.family, agent: route.agent?.name, key: route.key.key_mask, status: error.status, code: error.code, attempt: n }, 'upstream countTokens failed');
    if (!classify(error, snapshot.sys).retry) break;
    tried.agents.add(route.agent?.id ?? '');
    tried.keys.add(route.key.id);
  }
  const e = error!;
  throw new GatewayError(e.status >= 400 ? e.status : 502, e.code ?? 'upstream_error', shieldMessage(snapshot.sys, caller.user.role, e.message, traceId), e.type);
}
