// Where an Anthropic request goes: `{base}/v1/messages` (see ../url.ts for base URLs ending in /v1),
// authenticated with `x-api-key`, at the client's API version or ours.
import { codeString, errorTypeForStatus, fallbackError } from '../errors';
import { asRecord, isRecord, str, tryParse } from '../shape';
import type { UpstreamError, UpstreamTarget } from '../types';
import { defaultUrl, resolveUrl } from '../url';
import { ANTHROPIC_VERSION } from './wire';

const MESSAGES_PATH = '/v1/messages';
const COUNT_TOKENS_PATH = '/v1/messages/count_tokens';

export function anthropicUrl(target: UpstreamTarget): string {
  return resolveUrl(target.baseUrl, target.path, MESSAGES_PATH);
}

/**
 * `/v1/messages/count_tokens` beside the messages endpoint: an agent `path` names where messages live
 * (`/claude/messages`, a full URL), and Anthropic's API keeps count_tokens under it.
 */
export function countTokensUrl(target: UpstreamTarget): string {
  if (!target.path.trim()) return defaultUrl(target.baseUrl, COUNT_TOKENS_PATH);
  const url = anthropicUrl(target);
  const q = url.indexOf('?');
  return q < 0 ? `${url.replace(/\/+$/, '')}/count_tokens` : `${url.slice(0, q).replace(/\/+$/, '')}/count_tokens${url.slice(q)}`;
}

/** What an Anthropic client said about the API it speaks, forwarded to an Anthropic upstream as is. */
export interface AnthropicClientHeaders {
  /** `anthropic-version`; ours (ANTHROPIC_VERSION) when the client sends none. */
  version?: string;
  /** `anthropic-beta`: features the client opts into (prompt caching, 1M context, …). */
  beta?: string;
}

export function anthropicHeaders(key: string, client: AnthropicClientHeaders = {}): Record<string, string> {
  const headers: Record<string, string> = { 'x-api-key': key, 'anthropic-version': client.version || ANTHROPIC_VERSION, 'content-type': 'application/json' };
  if (client.beta) headers['anthropic-beta'] = client.beta;
  return headers;
}

/** Anthropic's error type for a status (529 is its "overloaded"). */
function typeForStatus(status: number): string {
  return status === 529 ? 'overloaded_error' : status >= 500 ? 'api_error' : errorTypeForStatus(status);
}

/** `{type:"error", error:{type, message}}` → UpstreamError; the Anthropic type is kept (it is already
 *  OpenAI-like: invalid_request_error, authentication_error, rate_limit_error, overloaded_error…). */
function anthropicError(status: number, payload: unknown): UpstreamError | undefined {
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
