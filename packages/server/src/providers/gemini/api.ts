// Where a Gemini request goes: `{base}/v1beta/models/{model}:generateContent`, or
// `:streamGenerateContent?alt=sse` for streams (without alt=sse Gemini streams a JSON array, not SSE).
// The key goes in `x-goog-api-key`, never in the `?key=` query, so it cannot leak into URL logs.
//
// Agent path overrides: a path containing `{model}` or `:` is a full endpoint path (`{model}` is
// replaced; a `:generateContent` in it becomes `:streamGenerateContent?alt=sse` for streams). Any other
// path is the version root to use instead of `/v1beta` (e.g. `/v1`).
import { codeString, errorTypeForStatus, fallbackError } from '../errors';
import { isRecord, str, tryParse } from '../shape';
import type { UpstreamError, UpstreamTarget } from '../types';
import { defaultUrl, overrideUrl } from '../url';

export function geminiUrl(target: UpstreamTarget, stream: boolean): string {
  const model = encodeURIComponent(target.model.replace(/^models\//, ''));
  const action = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
  const override = target.path.trim();
  if (!override) return defaultUrl(target.baseUrl, `/v1beta/models/${model}:${action}`);
  if (override.includes('{model}') || override.includes(':')) {
    const path = override.replace(/\{model\}/g, model);
    return overrideUrl(target.baseUrl, stream ? path.replace(/:generateContent\b/, ':streamGenerateContent?alt=sse') : path);
  }
  return overrideUrl(target.baseUrl, `${override.replace(/\/+$/, '')}/models/${model}:${action}`);
}

export function geminiHeaders(key: string): Record<string, string> {
  return { 'x-goog-api-key': key, 'content-type': 'application/json' };
}

/** `{error:{code, message, status}}` (also wrapped in an array by non-SSE streams) → UpstreamError. The
 *  gRPC status (RESOURCE_EXHAUSTED, PERMISSION_DENIED…) becomes `code`, which the gateway classifies. */
export function mapGeminiError(status: number, bodyText: string): UpstreamError {
  const json = tryParse(bodyText);
  const root = Array.isArray(json) ? json[0] : json;
  const err = isRecord(root) ? root.error : undefined;
  if (!isRecord(err) || !str(err.message)) return fallbackError(status, bodyText);
  return { status, message: str(err.message) ?? '', type: errorTypeForStatus(status), code: codeString(err.status) };
}
