// Narrowing helpers for upstream JSON: bodies arrive as `unknown` and are read defensively, because a
// compatible host (or a proxy in front of one) may leave out any field the real API documents.
import { randomUUID } from 'node:crypto';

export type Json = Record<string, unknown>;

export function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function asRecord(v: unknown): Json {
  return isRecord(v) ? v : {};
}

export function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A finite number, or 0: usage counters that are absent count as zero. */
export function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** JSON.parse that returns undefined instead of throwing (keep-alive comments, truncated bodies). */
export function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Tool-call arguments arrive as a JSON string; Anthropic and Gemini need an object. */
export function parseArguments(args: string | undefined): Json {
  const v = args ? tryParse(args) : undefined;
  return isRecord(v) ? v : {};
}

/** The text of an OpenAI message content (string or parts); non-text parts are skipped. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((p) => (isRecord(p) && p.type === 'text' ? (str(p.text) ?? '') : ''))
    .join('');
}

/** Splits a `data:` URL into media type and base64 payload; undefined for any other URL. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const m = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  return m ? { mediaType: m[1] ?? 'application/octet-stream', data: m[2] ?? '' } : undefined;
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/**
 * A random id with OpenAI's prefixes (`chatcmpl-`, `call_`) for answers whose upstream gave none: unique
 * per answer, as clients key caches, tool results and traces on them. randomUUID draws from a pooled
 * entropy buffer, so this costs one small string.
 */
export const randomId = (prefix: string): string => prefix + randomUUID().replaceAll('-', '');
