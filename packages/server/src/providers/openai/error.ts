// OpenAI error bodies → UpstreamError. Compatible hosts vary: `{error:{message,type,code}}` (OpenAI),
// `{error:"text"}`, `{message:"…"}`, `{detail:"…"}` (FastAPI-based hosts), or no JSON at all.
import { codeString, errorTypeForStatus, fallbackError } from '../errors';
import { isRecord, str, tryParse } from '../shape';
import type { UpstreamError } from '../types';

export function mapOpenAIError(status: number, bodyText: string): UpstreamError {
  const json = tryParse(bodyText);
  // A JSON array happens when a host wraps its error like Gemini's non-SSE stream does.
  const root = Array.isArray(json) ? json[0] : json;
  if (!isRecord(root)) return fallbackError(status, bodyText);
  const err = root.error;
  if (isRecord(err)) {
    return {
      status,
      message: str(err.message) ?? fallbackError(status, bodyText).message,
      type: str(err.type) ?? errorTypeForStatus(status),
      code: codeString(err.code),
    };
  }
  const message = str(err) ?? str(root.message) ?? str(root.detail) ?? str(root.msg);
  if (!message) return fallbackError(status, bodyText);
  return { status, message, type: str(root.type) ?? errorTypeForStatus(status), code: codeString(root.code) };
}
