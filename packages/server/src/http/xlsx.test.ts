import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { sendXlsx } from './xlsx';

/** The parts of a reply sendXlsx uses, writing into memory (or failing after `closeAfter` bytes). */
function fakeReply(closeAfter = Infinity) {
  const chunks: Buffer[] = [];
  const errors: unknown[] = [];
  let size = 0;
  const raw = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk);
      size += chunk.length;
      if (size > closeAfter) {
        raw.destroy();
        return;
      }
      setImmediate(cb);
    },
  });
  const headers: Record<string, unknown> = {};
  Object.assign(raw, { writeHead: (_status: number, h: Record<string, unknown>) => Object.assign(headers, h) });
  const reply = { hijack() {}, raw, log: { error: (e: unknown) => errors.push(e) } } as unknown as FastifyReply;
  return { reply, headers, errors, body: () => Buffer.concat(chunks) };
}

describe('sendXlsx', () => {
  it('writes a workbook that spreadsheet readers open, with every value type and awkward text', async () => {
    const { reply, headers, body, errors } = fakeReply();
    async function* batches() {
      yield [{ a: 'x < y & "z"', b: 1.5, c: true }];
      yield [{ a: 'bad\u0001char 中文', b: -3, c: false }, { a: '', b: null }];
    }
    await sendXlsx(reply, { filename: '聊天日志.xlsx', sheet: 'a/b: c', columns: [{ header: 'A', key: 'a', width: 30 }, { header: 'B', key: 'b' }, { header: 'C', key: 'c' }] }, batches());
    expect(errors).toEqual([]);
    expect(headers['content-disposition']).toContain(encodeURIComponent('聊天日志.xlsx'));
    const book = new ExcelJS.Workbook();
    const file = body();
    await book.xlsx.load(file.buffer.slice(file.byteOffset, file.byteOffset + file.length) as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.name).toBe('a_b_ c');
    expect(sheet.getColumn(1).width).toBe(30);
    const rows = sheet.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
    expect(rows).toEqual([
      ['A', 'B', 'C'],
      ['x < y & "z"', 1.5, true],
      ['badchar 中文', -3, false],
      // A row of empty values stays a (blank) row.
      [],
    ]);
  });

  it('reads the next batch only as the client takes the file, and stops when it goes away', async () => {
    const { reply, errors } = fakeReply(200_000);
    let produced = 0;
    let closed = false;
    async function* batches() {
      try {
        for (;;) {
          produced++;
          yield Array.from({ length: 1000 }, (_, i) => ({ a: `row ${produced}-${i} ${Math.random()}`, b: i }));
        }
      } finally {
        closed = true;
      }
    }
    await sendXlsx(reply, { filename: 'x.xlsx', sheet: 's', columns: [{ header: 'A', key: 'a' }, { header: 'B', key: 'b' }] }, batches());
    expect(closed).toBe(true);
    // ~200 kB reached the client: a handful of 1000-row batches, not an endless loop.
    expect(produced).toBeLessThan(50);
    expect(errors).toHaveLength(1);
  });
});
