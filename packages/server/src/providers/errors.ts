// Shared pieces of error mapping: every family's mapError falls back to these when the upstream body
// is not the documented JSON (an HTML page from a proxy, an empty 502, a plain-text message).
import type { UpstreamError } from './types';

/** OpenAI's error `type` for an HTTP status, used when the upstream gives none. */
export function errorTypeForStatus(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 408 || status === 504) return 'timeout_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

const MAX_MESSAGE = 500;

/** A readable message from a non-JSON body: HTML is reduced to its title, everything is truncated. */
function plainMessage(status: number, bodyText: string): string {
  const text = bodyText.trim();
  if (!text) return `upstream returned HTTP ${status} with an empty body`;
  if (/^<(!doctype|html)/i.test(text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
    return `upstream returned HTTP ${status} (HTML page${title ? `: ${title}` : ''})`;
  }
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
}

export function fallbackError(status: number, bodyText: string): UpstreamError {
  return { status, message: plainMessage(status, bodyText), type: errorTypeForStatus(status), code: null };
}

/** Error `code` values may be numbers on compatible hosts; the gateway matches on strings. */
export function codeString(v: unknown): string | null {
  if (typeof v === 'string' && v) return v;
  if (typeof v === 'number') return String(v);
  return null;
}
