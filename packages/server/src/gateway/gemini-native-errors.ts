// Errors for Gemini clients: `{error: {code, message, status}}`, `status` being the gRPC name of the HTTP
// status. Like messages-errors.ts: every failure (admission, resolution, body checks, upstream) is made
// once in OpenAI's shape, and the /v1beta scope's onSend hook rewrites that body, so no error path needs
// to know which dialect the client speaks. An upstream Gemini error keeps its own status name (it is the
// OpenAI body's `code`). Streams write their own error event.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isRecord, str, tryParse } from '../providers/shape';
import { GatewayError } from './errors';
import { formatEvent } from './sse';

const BY_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** The names google.rpc.Code has: an upstream's own (`code` of a relayed Gemini error) is kept. */
const RPC_NAMES = new Set([...Object.values(BY_STATUS), 'UNKNOWN', 'ALREADY_EXISTS', 'FAILED_PRECONDITION', 'OUT_OF_RANGE', 'DATA_LOSS']);

function googleStatus(status: number, code?: string | null): string {
  if (code && RPC_NAMES.has(code)) return code;
  return BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT');
}

function googleError(status: number, message: string, code?: string | null) {
  return { error: { code: status, message, status: googleStatus(status, code) } };
}

/** The event of a stream that fails after it started (Google sends the error object as one more event). */
export const googleErrorEvent = (status: number, message: string): string => formatEvent(googleError(status, message));

/** Paths, methods and model methods the scope does not serve: Google's 404 (the query, which may hold the key, left out). */
export const unknownUrl = (request: FastifyRequest): GatewayError =>
  new GatewayError(404, 'unknown_url', `Unknown request URL: ${request.method} ${request.url.split('?')[0]!.slice(0, 300)}.`);

export function unknownGeminiUrl(request: FastifyRequest): never {
  throw unknownUrl(request);
}

/** Scope-level onSend: an OpenAI-shaped error body becomes Google's. */
export async function toGoogleErrors(_request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
  const body = tryParse(payload);
  if (!isRecord(body) || !isRecord(body.error) || typeof body.error.status === 'string') return payload;
  return JSON.stringify(googleError(reply.statusCode, str(body.error.message) ?? 'Error', str(body.error.code)));
}
