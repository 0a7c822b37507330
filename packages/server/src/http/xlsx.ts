// Streamed xlsx downloads (docs/ORIGINAL-API.md §2.9): exports answer with the raw file, not the envelope.
// Callers run every check (scope, validation) before calling this, so those errors still arrive as
// the JSON envelope; once bytes flow, a failure can only cut the download short.
//
// The workbook is written here rather than by exceljs: its WorkbookWriter keeps the whole sheet in
// buffers until commit (measured: ~160 MB per 100,000 rows), while this writer deflates each batch
// as it comes and waits for the client (http/zip-stream.ts), so memory stays flat at any size.
import type { FastifyReply } from 'fastify';
import { ZipStream } from './zip-stream';

export interface XlsxColumn {
  header: string;
  key: string;
  width?: number;
}

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** `filename` may be non-ASCII (应用密钥.xlsx): RFC 6266 `filename*` plus an ASCII fallback. */
function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

// XML 1.0 has no place for most control characters; they are dropped, the rest escaped.
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;
const escapeXml = (s: string) => s.replace(INVALID_XML, '').replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);

/** 0 → A, 25 → Z, 26 → AA. */
function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function cell(ref: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'number' && Number.isFinite(value)) return `<c r="${ref}"><v>${value}</v></c>`;
  if (typeof value === 'boolean') return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
  const text = value instanceof Date ? value.toISOString() : String(value);
  return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(text)}</t></is></c>`;
}

/** Sheet names: at most 31 characters, none of []:*?/\ (Excel refuses the file otherwise). */
const sheetName = (name: string) => name.replace(/[[\]:*?/\\]/g, '_').slice(0, 31) || 'Sheet1';

async function* sheetXml(columns: XlsxColumn[], batches: AsyncIterable<Record<string, unknown>[]>): AsyncGenerator<string> {
  const refs = columns.map((_, i) => columnName(i));
  const widths = columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width ?? 12}" customWidth="1"/>`).join('');
  const header = columns.map((c, i) => cell(`${refs[i]}1`, c.header)).join('');
  yield `${XML_HEAD}<worksheet xmlns="${MAIN_NS}"><cols>${widths}</cols><sheetData><row r="1">${header}</row>`;
  let r = 1;
  for await (const rows of batches) {
    let xml = '';
    for (const row of rows) {
      r++;
      xml += `<row r="${r}">${columns.map((c, i) => cell(`${refs[i]}${r}`, row[c.key])).join('')}</row>`;
    }
    yield xml;
  }
  yield '</sheetData></worksheet>';
}

/** Writes rows batch by batch (each batch is deflated and sent before the next is read) and returns the reply. */
export async function sendXlsx(
  reply: FastifyReply,
  opts: { filename: string; sheet: string; columns: XlsxColumn[] },
  batches: AsyncIterable<Record<string, unknown>[]>,
): Promise<FastifyReply> {
  // Take the response over (Fastify must not try to answer again when the handler resolves), then stream.
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': XLSX_MIME, 'content-disposition': attachment(opts.filename) });
  const zip = new ZipStream(reply.raw);
  try {
    await zip.file(
      '[Content_Types].xml',
      [
        `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">`,
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>',
        '<Default Extension="xml" ContentType="application/xml"/>',
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>',
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>',
        '</Types>',
      ],
    );
    await zip.file('_rels/.rels', [
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">`,
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>',
      '</Relationships>',
    ]);
    await zip.file('xl/workbook.xml', [
      `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>`,
      `<sheet name="${escapeXml(sheetName(opts.sheet))}" sheetId="1" r:id="rId1"/>`,
      '</sheets></workbook>',
    ]);
    await zip.file('xl/_rels/workbook.xml.rels', [
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">`,
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>',
      '</Relationships>',
    ]);
    await zip.file('xl/worksheets/sheet1.xml', sheetXml(opts.columns, batches));
    await zip.finish();
  } catch (err) {
    reply.log.error({ err }, 'xlsx export failed');
    reply.raw.destroy(err as Error);
  }
  return reply;
}
