// Errors for Anthropic clients: `{type:"error", error:{type, message}}` with the same HTTP status.
// Every gateway failure (admission, resolution, body parsing, upstream) is produced once, in OpenAI's
// shape, by the scope's error handler; an onSend hook on every /v1/messages* route (unknown paths under
// it included) rewrites that one body, so no error path needs to know which dialect the client speaks.
// Streams write their own error event.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isRecord, str, tryParse } from '../providers/shape';
import { GatewayError } from './errors';
import { formatEvent } from './sse';

const BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

function anthropicErrorType(status: number): string {
  return BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

function anthropicError(status: number, message: string) {
  return { type: 'error', error: { type: anthropicErrorType(status), message } };
}

/** The `event: error` frame of a stream that fails after it started. */
export function anthropicErrorEvent(status: number, message: string): string {
  return formatEvent(anthropicError(status, message), 'error');
}

/** Paths and methods under /v1/messages the gateway does not serve (batches, files…): Anthropic's 404. */
export function unknownMessagesUrl(request: FastifyRequest): never {
  throw new GatewayError(404, 'unknown_url', `Unknown request URL: ${request.method} ${request.url.split('?')[0]}.`);
}

/** Route-level onSend: an OpenAI-shaped error body becomes Anthropic's. */
export async function toAnthropicErrors(_request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
  const body = tryParse(payload);
  if (!isRecord(body) || !isRecord(body.error) || body.type === 'error') return payload;
  return JSON.stringify(anthropicError(reply.statusCode, str(body.error.message) ?? 'Error'));
}
