// POST /v1/messages/count_tokens (Claude Code asks it to size its context): `{input_tokens}` of a
// Messages body, counted as count-tokens.ts says: an Anthropic-family route asks its upstream's
// count_tokens with the client's anthropic-* headers (Anthropic-compatible hosts without it answer
// 404/405 and get the local count); any other family is counted locally. Errors are OpenAI-shaped
// GatewayErrors like everywhere; the route's onSend renders them as Anthropic's.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { anthropicToChatRequest, buildCountTokensRequest } from '../providers/anthropic/messages';
import { isRecord } from '../providers/shape';
import { countTokens } from './count-tokens';
import type { Gateway } from './gateway';
import { anthropicClientHeaders, checkMessagesBody } from './messages';

type Counted = Record<string, unknown> & { input_tokens: number };

export async function countMessageTokens(gw: Gateway, request: FastifyRequest, reply: FastifyReply): Promise<Counted> {
  const body = checkMessagesBody(request.body);
  const client = anthropicClientHeaders(request);
  return countTokens<Counted>(gw, request, reply, {
    requested: body.model,
    chat: anthropicToChatRequest(body),
    family: 'anthropic',
    request: (route) => buildCountTokensRequest(route.target, body, client),
    read: (json) => (isRecord(json) && typeof json.input_tokens === 'number' ? (json as Counted) : undefined),
    local: (input_tokens) => ({ input_tokens }),
  });
}
