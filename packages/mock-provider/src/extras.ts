// The rest of the OpenAI-style surface: rerank (Jina/Cohere shape), image edits and audio translations
// (multipart uploads), and the few multipart fields the mock reads.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Fault } from './faults';
import { sendJson } from './http';
import { images } from './openai';
import { countTokens } from './text';

export interface Form {
  /** Text fields (the last value of each name). */
  fields: Record<string, string>;
  /** File parts per field name, with their sizes. */
  files: Record<string, number[]>;
}

/** A multipart body's text fields and file sizes; empty when it does not parse. */
export function readForm(raw: Buffer, contentType: string): Form {
  const form: Form = { fields: {}, files: {} };
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) return form;
  const sections = raw.toString('latin1').split(`--${boundary[1] ?? boundary[2]}`).slice(1, -1);
  for (const section of sections) {
    const split = section.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const headers = section.slice(0, split);
    const value = section.slice(split + 4, -2);
    const name = /name="([^"]*)"/i.exec(headers)?.[1];
    if (name === undefined) continue;
    if (/filename=/i.test(headers)) (form.files[name] ??= []).push(value.length);
    else form.fields[name] = Buffer.from(value, 'latin1').toString('utf8');
  }
  return form;
}

const words = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/**
 * POST /v1/rerank: scores are the share of the query's words a document has (ties keep document order),
 * usage.total_tokens the mock's count of query + document for every document (Jina counts so). With
 * `no_usage` it answers like Cohere: only meta.billed_units.search_units.
 */
export function rerank(res: ServerResponse, body: Record<string, any>, fault: Fault): void {
  const query = String(body.query ?? '');
  const docs: string[] = Array.isArray(body.documents) ? body.documents.map((d: unknown) => (typeof d === 'string' ? d : String((d as { text?: unknown })?.text ?? ''))) : [];
  const asked = words(query);
  const scored = docs.map((text, index) => {
    const have = words(text);
    const shared = [...asked].filter((w) => have.has(w)).length;
    return { index, relevance_score: Number((asked.size ? shared / asked.size : 0).toFixed(4)), text };
  });
  scored.sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
  const topN = Number(body.top_n) > 0 ? Number(body.top_n) : scored.length;
  const results = scored.slice(0, topN).map(({ index, relevance_score, text }) => ({ index, relevance_score, ...(body.return_documents === true ? { document: { text } } : {}) }));
  const tokens = docs.reduce((n, d) => n + countTokens(query) + countTokens(d), 0);
  const usage = fault.no_usage ? { meta: { billed_units: { search_units: Math.ceil(docs.length / 100) } } } : { usage: { total_tokens: tokens } };
  sendJson(res, 200, { id: `rerank-${randomUUID()}`, model: body.model, results, ...usage });
}

/** POST /v1/images/edits: like generations (n, response_format), once the form has an image and a prompt. */
export function imageEdits(res: ServerResponse, form: Form): void {
  const images_ = [...(form.files.image ?? []), ...(form.files['image[]'] ?? [])];
  if (!images_.length || !form.fields.prompt) {
    sendJson(res, 400, { error: { message: 'image and prompt are required', type: 'invalid_request_error', code: null, param: images_.length ? 'prompt' : 'image' } });
    return;
  }
  images(res, { n: form.fields.n, response_format: form.fields.response_format, prompt: `${form.fields.prompt} (${images_.length} image(s)${form.files.mask ? ', masked' : ''})` });
}

/** POST /v1/audio/translations: like a transcription, in English. */
export function translation(res: ServerResponse, size: number): void {
  sendJson(res, 200, { text: `Mock English translation of ${size} bytes.` });
}
