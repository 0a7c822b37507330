// Uploaded site images (logo, favicon, avatar, background): sniffed by their magic bytes (never the
// name or the declared type), stored as DATA_DIR/uploads/<random>.<ext>, served read-only under
// /uploads/<name> with long caching (a name is never reused, so a file never changes).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

const UPLOAD_TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/x-icon',
  svg: 'image/svg+xml',
} as const;
export type UploadExt = keyof typeof UPLOAD_TYPES;

/** A stored file's name: 32 hex digits and a type this module writes (also found inside stored texts). */
export const UPLOAD_NAME = `[a-f0-9]{32}\\.(?:${Object.keys(UPLOAD_TYPES).join('|')})`;
const NAME = new RegExp(`^${UPLOAD_NAME}$`);

const starts = (buf: Buffer, bytes: number[], at = 0) => buf.length >= at + bytes.length && bytes.every((b, i) => buf[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The image type of `buf` by its first bytes, or undefined for anything else. */
export function sniffImage(buf: Buffer): UploadExt | undefined {
  if (starts(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts(buf, [0xff, 0xd8, 0xff])) return 'jpg';
  if (starts(buf, ascii('GIF87a')) || starts(buf, ascii('GIF89a'))) return 'gif';
  if (starts(buf, ascii('RIFF')) && starts(buf, ascii('WEBP'), 8)) return 'webp';
  if (starts(buf, [0x00, 0x00, 0x01, 0x00]) && buf.length > 6) return 'ico';
  // SVG is text: an optional BOM, XML declaration, comments or doctype, then the <svg> root.
  const head = buf.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, '');
  const rest = head.replace(/^\s*(<\?xml[^>]*\?>\s*)?((<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)\s*)*/i, '');
  if (/^<svg[\s>]/i.test(rest)) return 'svg';
  return undefined;
}

export interface UploadedFile {
  filename: string;
  data: Buffer;
}

/** The part named `field` of a multipart/form-data body, or undefined. */
export function multipartFile(body: Buffer, contentType: string | undefined, field = 'file'): UploadedFile | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  const mark = boundary?.[1] ?? boundary?.[2];
  if (!mark) return undefined;
  const delimiter = Buffer.from(`--${mark}`);
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') return undefined;
    const next = body.indexOf(delimiter, start);
    if (next < 0) return undefined;
    const part = body.subarray(start + 2, next - 2); // CRLF after the delimiter, CRLF before the next
    const split = part.indexOf('\r\n\r\n');
    if (split >= 0) {
      const headers = part.subarray(0, split).toString('utf8');
      const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? '';
      const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
      if (name === field) return { filename: /filename="([^"]*)"/i.exec(disposition)?.[1] ?? '', data: part.subarray(split + 4) };
    }
    at = next;
  }
  return undefined;
}

export const uploadDir = (dataDir: string) => path.join(dataDir, 'uploads');

/** A fresh random file name (never reused, so a served file never changes). */
export const newUploadName = (ext: UploadExt) => `${randomBytes(16).toString('hex')}.${ext}`;

/** Whether `name` is one this module writes. */
export const isUploadName = (name: string) => NAME.test(name);

/** Writes the file under `name` (never over an existing one); returns its public URL. */
export async function writeUpload(dataDir: string, name: string, data: Buffer): Promise<string> {
  const dir = uploadDir(dataDir);
  await fs.promises.mkdir(dir, { recursive: true });
  await fs.promises.writeFile(path.join(dir, name), data, { flag: 'wx' });
  return `/uploads/${name}`;
}

/** GET /uploads/<name>: only names this module writes (no paths, so no traversal). */
export function serveUploads(app: FastifyInstance, dataDir: string): void {
  app.get<{ Params: { name: string } }>('/uploads/:name', async (request, reply) => {
    const { name } = request.params;
    const file = path.join(uploadDir(dataDir), name);
    const stat = isUploadName(name) ? await fs.promises.stat(file).catch(() => undefined) : undefined;
    if (!stat?.isFile()) return reply.status(404).type('text/plain').send('Not Found');
    const ext = name.slice(name.lastIndexOf('.') + 1) as UploadExt;
    reply
      .type(UPLOAD_TYPES[ext])
      .header('content-length', stat.size)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      // An SVG may carry scripts: opened directly it runs nothing and loads nothing.
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    return reply.send(fs.createReadStream(file));
  });
}
