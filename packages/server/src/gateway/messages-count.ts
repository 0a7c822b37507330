// POST /v1/messages/count_tokens (Claude Code asks it to size its context): `{input_tokens}` of a
// Messages body. Admitted, resolved and rate limited like /v1/messages, so a key counts only for models
// it may call; but it is not a call: nothing is reserved, charged or logged, and a failed attempt does
// not count against the key's health (calls judge keys).
// - Anthropic-family route: the upstream's own count_tokens with a key picked like a call's (one other
//   key when the first fails in a way a call would retry), the client's anthropic-* headers forwarded.
//   Hosts that speak Messages without count_tokens (many Anthropic-compatible APIs) answer 404/405:
//   those get the local count below instead of an error.
// - Any other family: the gateway's count of the converted prompt with the tokenizer the settle uses
//   (billing/tokens.ts), so the number matches what a call is billed when its upstream reports none.
// Errors are OpenAI-shaped GatewayErrors like everywhere; the route's onSend renders them as Anthropic's.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { countChatPrompt } from '../billing/tokens';
import type { AnthropicClientHeaders } from '../providers/anthropic/api';
import { anthropicToChatRequest, buildCountTokensRequest } from '../providers/anthropic/messages';
import { providers } from '../providers/index';
import { isRecord } from '../providers/shape';
import type { ChatRequest, UpstreamError } from '../providers/types';
import { classify } from './classify';
import { GatewayError } from './errors';
import type { Gateway } from './gateway';
import { anthropicClientHeaders, checkMessagesBody } from './messages';
import { pick, type Route, type Tried } from './pick';
import { badUpstreamBody, withoutKey } from './relay';
import { admitRequest } from './run';
import { shieldMessage } from './shield';
import { UpstreamFailure } from './upstream';

/** A count is cheap to ask again: the first key, then one other at most. */
const MAX_ATTEMPTS = 2;

type Counted = Record<string, unknown> & { input_tokens: number };

/** One upstream count_tokens: its answer as is (unknown fields too), or the error a call would have seen. */
async function upstreamCount(gw: Gateway, route: Route, body: Record<string, unknown>, client: AnthropicClientHeaders, timeoutMs: number): Promise<{ counted: Counted } | { error: UpstreamError }> {
  let res;
  try {
    res = await gw.upstream.send(buildCountTokensRequest(route.target, body, client), { timeoutMs });
  } catch (err) {
    if (err instanceof UpstreamFailure) return { error: err.error };
    throw err;
  }
  if (res.status < 200 || res.status >= 300) {
    const text = withoutKey(route.key, await res.body.text().catch(() => ''));
    return { error: providers.anthropic.mapError(res.status, text) };
  }
  const json: unknown = await res.body.json().catch(() => undefined);
  return isRecord(json) && typeof json.input_tokens === 'number' ? { counted: json as Counted } : badUpstreamBody();
}

const localCount = (chat: ChatRequest, route: Route): Counted => ({ input_tokens: countChatPrompt(chat.messages, route.target.model, chat.tools) });

export async function countMessageTokens(gw: Gateway, request: FastifyRequest, reply: FastifyReply): Promise<Counted> {
  const body = checkMessagesBody(request.body);
  const chat = anthropicToChatRequest(body);
  const { traceId, caller, resolution } = await admitRequest(gw, request, reply, { requested: body.model, endpoint: 'chat', chat });
  const { snapshot } = gw;
  const client = anthropicClientHeaders(request);
  const tried: Tried = { agents: new Set(), keys: new Set() };
  let error: UpstreamError | undefined;
  for (let n = 0; n < MAX_ATTEMPTS; n++) {
    // Smart matching (resolution.smart) is skipped: it costs a model call to save none.
    const route = pick(snapshot, resolution.target, resolution.group, body.model, tried, undefined, gw.breakers);
    if (route.family !== 'anthropic') return localCount(chat, route);
    const answer = await upstreamCount(gw, route, body, client, snapshot.sys.base.short_timeout * 1000);
    if ('counted' in answer) return answer.counted;
    error = answer.error;
    if (error.status === 404 || error.status === 405) return localCount(chat, route);
    reply.log.warn({ family: route.family, agent: route.agent?.name, key: route.key.key_mask, status: error.status, code: error.code, attempt: n }, 'upstream count_tokens failed');
    if (!classify(error, snapshot.sys).retry) break;
    tried.agents.add(route.agent?.id ?? '');
    tried.keys.add(route.key.id);
  }
  const e = error!;
  throw new GatewayError(e.status >= 400 ? e.status : 502, e.code ?? 'upstream_error', shieldMessage(snapshot.sys, caller.user.role, e.message, traceId), e.type);
}
