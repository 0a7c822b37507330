// Streamed xlsx downloads (reference §2.9): exports answer with the raw file, not the envelope.
// Callers run every check (scope, validation) before calling this, so those errors still arrive as
// the JSON envelope; once bytes flow, a failure can only cut the download short.
import { PassThrough } from 'node:stream';
// exceljs is CommonJS: only its default export carries `stream` under Node's ESM loader.
import type { FastifyReply } from 'fastify';

export interface XlsxColumn {
  header: string;
  key: string;
  width?: number;
}

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** `filename` may be non-ASCII (应用密钥.xlsx): RFC 6266 `filename*` plus an ASCII fallback. */
export function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Writes rows batch by batch (rows are committed as they go, so memory stays flat) and returns the reply. */
export async function sendXlsx(
  reply: FastifyReply,
  opts: { filename: string; sheet: string; columns: XlsxColumn[] },
  batches: AsyncIterable<Record<string, unknown>[]>,
): Promise<FastifyReply> {
  const out = new PassThrough();
  // Take the response over (Fastify must not try to answer again when the handler resolves), then stream.
  reply.hijack();
  reply.raw.writeHead(200, { 'content-type': XLSX_MIME, 'content-disposition': attachment(opts.filename) });
  out.pipe(reply.raw);
  try {
    // exceljs is ~28 MB resident: loaded on the first export, not at start.
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
    const sheet = workbook.addWorksheet(opts.sheet);
    sheet.columns = opts.columns;
    for await (const rows of batches) for (const row of rows) sheet.addRow(row).commit();
    sheet.commit();
    await workbook.commit();
  } catch (err) {
    reply.log.error({ err }, 'xlsx export failed');
    out.destroy(err as Error);
  }
  return reply;
}
