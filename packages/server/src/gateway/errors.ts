// Errors to gateway clients in OpenAI's shape ({error: {message, type, code}}) with the right status.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { JsonTooDeepError } from '../http/json-body';

export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly type = typeFor(status),
    /** Seconds, for 429 answers. */
    readonly retryAfter?: number,
    /** The request field at fault, when one is (OpenAI's `param`). */
    readonly param?: string,
  ) {
    super(message);
  }
}

/**
 * The gateway's own quota refusals (run.ts, admit.ts, resolve.ts): retrying cannot help until someone
 * recharges or extends, so the OpenAI SDKs are told not to (`x-should-retry: false`; they would
 * otherwise retry a 429 twice).
 */
const QUOTA_REFUSALS = new Set(['insufficient_quota', 'app_quota_exhausted', 'key_quota_exhausted', 'group_quota_exhausted', 'account_quota_expired', 'reseller_quota_expired']);

function typeFor(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

export const invalidRequest = (message: string, code = 'invalid_request') => new GatewayError(400, code, message);
/** A 400 naming the request field at fault (OpenAI's `param`), as OpenAI answers bad parameters. */
export const invalidParam = (param: string, message: string, code = 'invalid_value') => new GatewayError(400, code, message, undefined, undefined, param);

export function sendGatewayError(reply: FastifyReply, error: GatewayError, traceId?: string) {
  if (error.retryAfter !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfter))));
  if (QUOTA_REFUSALS.has(error.code)) reply.header('x-should-retry', 'false');
  if (traceId) reply.header('x-trace-id', traceId).header('x-request-id', traceId);
  return reply.status(error.status).send({ error: { message: error.message, type: error.type, code: error.code, param: error.param ?? null } });
}

/** Fastify's own failures (bad JSON, body too large) and anything unexpected, in the same shape. */
export function gatewayErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof GatewayError) return sendGatewayError(reply, error);
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendGatewayError(reply, new GatewayError(413, 'request_too_large', 'The request body is too large.'));
  if (error instanceof JsonTooDeepError) return sendGatewayError(reply, invalidRequest(error.message, 'json_too_deep'));
  if (error.code?.startsWith('FST_ERR_CTP') || error.statusCode === 400) {
    return sendGatewayError(reply, invalidRequest('We could not parse the JSON body of your request.', 'invalid_json'));
  }
  if (error.statusCode === 415) return sendGatewayError(reply, new GatewayError(415, 'unsupported_media_type', 'Unsupported content type.'));
  request.log.error({ err: error }, 'unhandled gateway error');
  return sendGatewayError(reply, new GatewayError(500, 'internal_error', 'The gateway had an internal error.'));
}
