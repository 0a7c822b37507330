// Token counting for /v1/messages/count_tokens and /v1beta/…:countTokens. A count is admitted, resolved
// and rate limited like a call (admitRequest, so a key counts only for models it may call), but it is
// not a call: nothing is reserved, charged or logged, and a failed attempt does not count against the
// key's health. A route of the ingress's own family asks its upstream, with a key picked like a call's
// (one other key when the first fails in a way a call would retry); hosts without a count endpoint
// (404/405), and any other family, get the gateway's count of the converted prompt with the tokenizer
// the settle uses (billing/tokens.ts), so it matches what a call is billed when its upstream reports none.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ProviderFamily } from '@fastgate/core/constants';
import { countChatPrompt } from '../billing/tokens';
import { providers } from '../providers/index';
import type { ChatRequest, UpstreamError, UpstreamRequest } from '../providers/types';
import { classify } from './classify';
import type { Gateway } from './gateway';
import { pick, Tried, type Route } from './pick';
import { badUpstreamBody, withoutKey } from './relay';
import { admitRequest, callFailure } from './run';
import { UpstreamFailure } from './upstream';

/** A count is cheap to ask again: the first key, then one other at most. */
const MAX_ATTEMPTS = 2;

/** What one ingress's count is: its family, its upstream request, and its answer's shape. */
export interface TokenCount<C> {
  requested: string;
  chat: ChatRequest;
  family: ProviderFamily;
  /** The upstream's count request for this route; undefined when it has none (counted locally). */
  request(route: Route): UpstreamRequest | undefined;
  /** The count in the upstream's answer (as is, unknown fields too), or undefined when it is not one. */
  read(json: unknown): C | undefined;
  /** The answer for a number of tokens counted here. */
  local(tokens: number): C;
}

/** One upstream count: its answer, or the error a call would have seen. */
async function upstreamCount<C>(gw: Gateway, route: Route, req: UpstreamRequest, count: TokenCount<C>, timeoutMs: number): Promise<{ counted: C } | { error: UpstreamError }> {
  let res;
  try {
    res = await gw.upstream.send(req, { timeoutMs });
  } catch (err) {
    if (err instanceof UpstreamFailure) return { error: err.error };
    throw err;
  }
  if (res.status < 200 || res.status >= 300) {
    const text = withoutKey(route.key, await res.body.text().catch(() => ''));
    return { error: providers[route.family].mapError(res.status, text) };
  }
  const counted = count.read(await res.body.json().catch(() => undefined));
  return counted === undefined ? badUpstreamBody() : { counted };
}

export async function countTokens<C>(gw: Gateway, request: FastifyRequest, reply: FastifyReply, count: TokenCount<C>): Promise<C> {
  const { chat, requested } = count;
  const { traceId, caller, resolution } = await admitRequest(gw, request, { requested, endpoint: 'chat', chat });
  const { snapshot } = gw;
  const local = (route: Route) => count.local(countChatPrompt(chat.messages, route.target.model, chat.tools));
  const tried = new Tried();
  let error: UpstreamError | undefined;
  for (let n = 0; n < MAX_ATTEMPTS; n++) {
    // Smart matching (resolution.smart) is skipped: it costs a model call to save none.
    const route = pick(snapshot, resolution.target, resolution.group, requested, tried, undefined, gw.breakers);
    const req = route.family === count.family ? count.request(route) : undefined;
    if (!req) return local(route);
    const answer = await upstreamCount(gw, route, req, count, snapshot.sys.base.short_timeout * 1000);
    if ('counted' in answer) return answer.counted;
    error = answer.error;
    if (error.status === 404 || error.status === 405) return local(route);
    reply.log.warn({ family: route.family, agent: route.agent?.name, key: route.key.key_mask, status: error.status, code: error.code, attempt: n }, 'upstream token count failed');
    if (!classify(error, snapshot.sys).retry) break;
    tried.add(route);
  }
  throw callFailure(gw, { traceId, caller }, error!);
}
