// OpenAI endpoints other than chat (completions, embeddings, images, audio, moderations) go to the
// route family's `passthrough()` URL with the body as the client sent it, the model replaced by the
// route's upstream model. Only the OpenAI family (OpenAI, Azure, compatible hosts) has them: any other
// family answers 400 unsupported_endpoint without an upstream call (the retry loop does not retry a 400).
import { providers } from '../providers/index';
import type { PassthroughEndpoint } from '../providers/types';
import { isRecord } from '../providers/shape';
import { invalidRequest } from './errors';
import type { Gateway } from './gateway';
import { failure, sendOrFail } from './relay';
import type { AttemptContext, Failed } from './attempt';
import type { UpstreamReply } from './upstream';

/** Sends a JSON body (model replaced) or raw bytes (multipart, model already replaced by the caller). */
export async function sendPassthrough(
  gw: Gateway,
  ctx: AttemptContext,
  endpoint: PassthroughEndpoint,
  body: { json: Record<string, unknown> } | { raw: Buffer; contentType: string },
): Promise<UpstreamReply | Failed> {
  const passthrough = providers[ctx.route.family].passthrough;
  if (!passthrough) {
    return failure({ status: 400, type: 'invalid_request_error', code: 'unsupported_endpoint', message: `The model \`${ctx.plan.requested}\` does not support /v1/${endpoint}.` });
  }
  if ('raw' in body) {
    const { url, headers } = passthrough(ctx.route.target, endpoint, body.contentType);
    return sendOrFail(gw, ctx, { url, headers, body: '' }, body.raw);
  }
  const { url, headers } = passthrough(ctx.route.target, endpoint, 'application/json');
  return sendOrFail(gw, ctx, { url, headers, body: JSON.stringify({ ...body.json, model: ctx.route.target.model }) });
}

/** The first checks of every JSON endpoint body: an object with a model string. */
export function parseJsonBody(body: unknown): Record<string, unknown> & { model: string } {
  if (!isRecord(body)) throw invalidRequest('The request body must be a JSON object.');
  if (typeof body.model !== 'string' || !body.model.trim()) throw invalidRequest('You must provide a model parameter.', 'model_required');
  return body as Record<string, unknown> & { model: string };
}

/** Field type checks with OpenAI's wording; `kind` is what typeof must say. */
export function expectTypes(body: Record<string, unknown>, fields: Record<string, 'string' | 'number' | 'boolean'>): void {
  for (const [name, kind] of Object.entries(fields)) {
    const v = body[name];
    if (v !== undefined && v !== null && typeof v !== kind) throw invalidRequest(`'${name}' must be a ${kind}.`, 'invalid_type');
  }
}

/** `input` of embeddings and moderations: a string, strings, or token arrays. */
export function expectInput(body: Record<string, unknown>): void {
  const v = body.input;
  const ok = typeof v === 'string' || (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string' || typeof x === 'number' || Array.isArray(x) || isRecord(x)));
  if (!ok) throw invalidRequest("'input' must be a string or a non-empty array.", 'invalid_type');
}

/** The text a log keeps as the prompt: `input` as text. */
export function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (Array.isArray(input)) return input.map((x) => (typeof x === 'string' ? x : isRecord(x) && typeof x.text === 'string' ? x.text : '')).filter(Boolean).join('\n');
  return '';
}
