// Where an Anthropic request goes: `{base}/v1/messages` (see ../url.ts for base URLs ending in /v1),
// authenticated with `x-api-key` and pinned to one API version.
import { codeString, errorTypeForStatus, fallbackError } from '../errors';
import { asRecord, isRecord, str, tryParse } from '../shape';
import type { UpstreamError, UpstreamTarget } from '../types';
import { resolveUrl } from '../url';
import { ANTHROPIC_VERSION } from './wire';

export const MESSAGES_PATH = '/v1/messages';

export function anthropicUrl(target: UpstreamTarget): string {
  return resolveUrl(target.baseUrl, target.path, MESSAGES_PATH);
}

/** `beta` is the client's `anthropic-beta` header on the native /v1/messages route, forwarded as is. */
export function anthropicHeaders(key: string, beta?: string): Record<string, string> {
  const headers: Record<string, string> = { 'x-api-key': key, 'anthropic-version': ANTHROPIC_VERSION, 'content-type': 'application/json' };
  if (beta) headers['anthropic-beta'] = beta;
  return headers;
}

/** Anthropic's error type for a status (529 is its "overloaded"). */
function typeForStatus(status: number): string {
  return status === 529 ? 'overloaded_error' : status >= 500 ? 'api_error' : errorTypeForStatus(status);
}

/** `{type:"error", error:{type, message}}` → UpstreamError; the Anthropic type is kept (it is already
 *  OpenAI-like: invalid_request_error, authentication_error, rate_limit_error, overloaded_error…). */
export function anthropicError(status: number, payload: unknown): UpstreamError | undefined {
  const err = asRecord(payload).error;
  if (!isRecord(err)) return undefined;
  const message = str(err.message);
  if (!message) return undefined;
  return { status, message, type: str(err.type) ?? typeForStatus(status), code: codeString(err.code) };
}

export function mapAnthropicError(status: number, bodyText: string): UpstreamError {
  return anthropicError(status, tryParse(bodyText)) ?? { ...fallbackError(status, bodyText), type: typeForStatus(status) };
}

/** The HTTP status an in-stream `error` event stands for (the stream itself was a 200). */
export function statusOfErrorType(type: string | undefined): number {
  switch (type) {
    case 'overloaded_error':
      return 529;
    case 'rate_limit_error':
      return 429;
    case 'authentication_error':
      return 401;
    case 'permission_error':
      return 403;
    case 'not_found_error':
      return 404;
    case 'request_too_large':
      return 413;
    case 'invalid_request_error':
      return 400;
    default:
      return 500;
  }
}
