// A write-only zip stream for downloads: each entry is deflated as it is produced and written with a
// trailing data descriptor, so neither the entry nor the archive is ever held whole, and every write
// waits for the destination to drain (a slow client slows the producer instead of filling memory).
// No zip64: an entry stays under 4 GiB (an xlsx sheet of several million rows).
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import zlib from 'node:zlib';

const LIMIT = 0xffff_ffff;

interface Entry {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** MS-DOS time and date of `d` (zip headers). */
function dosTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((Math.max(d.getFullYear(), 1980) - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/** Resolves once `out` took `buf` (waiting for 'drain' when its buffer is full); rejects when it closed. */
async function put(out: Writable, buf: Buffer): Promise<void> {
  if (out.destroyed || out.writableEnded) throw new Error('download closed');
  if (out.write(buf)) return;
  const ac = new AbortController();
  try {
    await Promise.race([once(out, 'drain', { signal: ac.signal }), once(out, 'close', { signal: ac.signal }).then(() => Promise.reject(new Error('download closed')))]);
  } finally {
    ac.abort();
  }
}

export class ZipStream {
  private offset = 0;
  private readonly entries: Entry[] = [];
  private readonly stamp = dosTime(new Date());

  constructor(private readonly out: Writable) {}

  private async write(buf: Buffer): Promise<void> {
    this.offset += buf.length;
    await put(this.out, buf);
  }

  /** Adds one file whose content arrives in pieces. */
  async file(name: string, content: AsyncIterable<string | Buffer> | Iterable<string | Buffer>): Promise<void> {
    const entry: Entry = { name: Buffer.from(name, 'utf8'), crc: 0, compressed: 0, size: 0, offset: this.offset };
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    head.writeUInt16LE(0x0808, 6); // sizes in a data descriptor; UTF-8 names
    head.writeUInt16LE(8, 8); // deflate
    head.writeUInt16LE(this.stamp.time, 10);
    head.writeUInt16LE(this.stamp.date, 12);
    // crc and sizes (14..25) stay 0: they follow the data.
    head.writeUInt16LE(entry.name.length, 26);
    await this.write(Buffer.concat([head, entry.name]));

    const deflate = zlib.createDeflateRaw({ level: 6 });
    // Compressed output goes out as it comes; the loop below waits whenever deflate's input is full.
    const pump = (async () => {
      for await (const chunk of deflate as AsyncIterable<Buffer>) {
        entry.compressed += chunk.length;
        await this.write(chunk);
      }
    })();
    pump.catch(() => deflate.destroy());
    try {
      for await (const piece of content) {
        const buf = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
        if (!buf.length) continue;
        entry.crc = zlib.crc32(buf, entry.crc);
        entry.size += buf.length;
        if (entry.size > LIMIT) throw new Error('zip entry over 4 GiB');
        if (!deflate.write(buf)) await Promise.race([once(deflate, 'drain'), pump]);
      }
      deflate.end();
    } catch (err) {
      deflate.destroy();
      throw err;
    }
    await pump;
    if (entry.compressed > LIMIT) throw new Error('zip entry over 4 GiB');

    const desc = Buffer.alloc(16);
    desc.writeUInt32LE(0x08074b50, 0);
    desc.writeUInt32LE(entry.crc >>> 0, 4);
    desc.writeUInt32LE(entry.compressed, 8);
    desc.writeUInt32LE(entry.size, 12);
    await this.write(desc);
    this.entries.push(entry);
  }

  /** Writes the central directory and ends the destination. */
  async finish(): Promise<void> {
    const start = this.offset;
    if (start > LIMIT) throw new Error('zip archive over 4 GiB');
    for (const e of this.entries) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(20, 4); // made by: 2.0
      h.writeUInt16LE(20, 6);
      h.writeUInt16LE(0x0808, 8);
      h.writeUInt16LE(8, 10);
      h.writeUInt16LE(this.stamp.time, 12);
      h.writeUInt16LE(this.stamp.date, 14);
      h.writeUInt32LE(e.crc >>> 0, 16);
      h.writeUInt32LE(e.compressed, 20);
      h.writeUInt32LE(e.size, 24);
      h.writeUInt16LE(e.name.length, 28);
      // extra, comment, disk, attributes: 0
      h.writeUInt32LE(e.offset, 42);
      await this.write(Buffer.concat([h, e.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.write(end);
    await new Promise<void>((resolve) => this.out.end(resolve));
  }
}
