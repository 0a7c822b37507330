// Just enough multipart/form-data (RFC 7578) for the upload endpoints (audio transcriptions and
// translations, image edits): where each part's value sits in the raw body, so the gateway can read
// `model` to route, measure the files, and swap the model for the upstream's while every other byte
// (boundary included) goes upstream untouched. A full parser (@fastify/multipart) would stream the files
// to disk and make us re-encode the form; we never need to.
import type { FastifyRequest } from 'fastify';
import { GatewayError, invalidRequest } from './errors';

export interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  /** Byte range of the value inside the body. */
  start: number;
  end: number;
}

function boundaryOf(contentType: string): string | undefined {
  const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m?.[1] ?? m?.[2];
}

function headerValue(headers: string, name: string): string | undefined {
  const m = new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(headers);
  return m?.[1]?.trim();
}

function dispositionParam(disposition: string, param: string): string | undefined {
  const m = new RegExp(`;\\s*${param}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(disposition) ?? new RegExp(`;\\s*${param}=([^;\\s]+)`, 'i').exec(disposition);
  return m?.[1]?.replace(/\\(.)/g, '$1');
}

/** The parts of a multipart body; undefined when it is not well-formed. */
function readParts(body: Buffer, contentType: string): Part[] | undefined {
  const boundary = boundaryOf(contentType);
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  const next = Buffer.from(`\r\n--${boundary}`);
  let at = body.indexOf(delimiter);
  if (at < 0) return undefined;
  const parts: Part[] = [];
  for (;;) {
    at += delimiter.length;
    // `--` after a delimiter closes the form.
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return parts;
    if (body[at] !== 0x0d || body[at + 1] !== 0x0a) return undefined;
    const headersEnd = body.indexOf('\r\n\r\n', at + 2);
    if (headersEnd < 0) return undefined;
    const headers = body.toString('latin1', at + 2, headersEnd);
    const start = headersEnd + 4;
    const end = body.indexOf(next, start);
    if (end < 0) return undefined;
    const disposition = headerValue(headers, 'content-disposition') ?? '';
    const name = dispositionParam(disposition, 'name');
    if (name === undefined) return undefined;
    parts.push({ name, filename: dispositionParam(disposition, 'filename'), contentType: headerValue(headers, 'content-type'), start, end });
    at = end + 2;
  }
}

function fieldText(body: Buffer, part: Part | undefined): string | undefined {
  return part ? body.toString('utf8', part.start, part.end) : undefined;
}

/** The body with one part's value replaced. */
export function replaceValue(body: Buffer, part: Part, value: string): Buffer {
  return Buffer.concat([body.subarray(0, part.start), Buffer.from(value, 'utf8'), body.subarray(part.end)]);
}

/** A multipart request as the upload endpoints read it. */
export interface Form {
  body: Buffer;
  contentType: string;
  parts: Part[];
  /** The `model` field (its value is what replaceValue swaps) and its trimmed text. */
  model: Part;
  requested: string;
}

/** The request's form: 415 when it is not multipart, 400 when it does not parse or names no model. */
export function readForm(request: FastifyRequest, what: string): Form {
  const contentType = request.headers['content-type'] ?? '';
  const body = request.body;
  if (!Buffer.isBuffer(body) || !/^multipart\/form-data/i.test(contentType)) {
    throw new GatewayError(415, 'unsupported_media_type', `Send the ${what} as multipart/form-data.`);
  }
  const parts = readParts(body, contentType);
  if (!parts) throw invalidRequest('We could not parse the multipart body of your request.', 'invalid_multipart');
  // One value per name (lists are `name[]`): we read the first, an upstream may read the last, so a second
  // `model`, `n`, `size` or `file` would be billed as one thing and served as another.
  const seen = new Set<string>();
  for (const p of parts) {
    if (seen.has(p.name) && !p.name.endsWith('[]')) throw new GatewayError(400, 'duplicate_field', `'${p.name}' is given more than once.`, undefined, undefined, p.name);
    seen.add(p.name);
  }
  const model = parts.find((p) => p.name === 'model' && p.filename === undefined);
  const requested = fieldText(body, model)?.trim();
  if (!model || !requested) throw new GatewayError(400, 'model_required', 'You must provide a model parameter.', undefined, undefined, 'model');
  return { body, contentType, parts, model, requested };
}

/** A text field's value (file parts of that name are not fields); undefined when absent. */
export function textField(form: Form, name: string): string | undefined {
  return fieldText(form.body, form.parts.find((p) => p.name === name && p.filename === undefined));
}

/** The non-empty file parts named `name` (or `name[]`, how SDKs send a list). */
export function fileParts(form: Form, name: string): Part[] {
  return form.parts.filter((p) => (p.name === name || p.name === `${name}[]`) && p.end > p.start);
}
