import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logSink } from './log-sink';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('logSink', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fg-log-sink-'));
  afterEach(() => vi.restoreAllMocks());

  it('writes the lines of one turn together on the next, in order, and calls flush back once they are out', async () => {
    const file = path.join(dir, 'turn.log');
    const fd = fs.openSync(file, 'w');
    const writes = vi.spyOn(fs, 'writeSync');
    const nonBlocking = vi.fn();
    const sink = logSink(fd, nonBlocking);
    for (const n of [1, 2, 3]) sink.write(`{"n":${n},"msg":"页"}\n`);
    const flushed = new Promise<void>((resolve) => sink.flush(() => resolve()));
    await turn();
    await flushed;
    // One system call for the turn's three lines (and one non-blocking switch), not one of each a line.
    expect(writes).toHaveBeenCalledTimes(1);
    expect(nonBlocking).toHaveBeenCalledTimes(1);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"n":1,"msg":"页"}\n{"n":2,"msg":"页"}\n{"n":3,"msg":"页"}\n');
    sink.write('{"n":4}\n');
    sink.flushSync();
    expect(fs.readFileSync(file, 'utf8').endsWith('{"n":4}\n')).toBe(true);
    expect(sink.dropped).toBe(0);
    fs.closeSync(fd);
  });

  it('counts every line of a turn lost to a broken output', async () => {
    const fd = fs.openSync(path.join(dir, 'broken.log'), 'w');
    vi.spyOn(fs, 'writeSync').mockImplementation(() => {
      throw Object.assign(new Error('broken pipe'), { code: 'EPIPE' });
    });
    const sink = logSink(fd);
    sink.write('a\n');
    sink.write('b\n');
    await turn();
    sink.write('c\n');
    expect(sink.dropped).toBe(3);
    fs.closeSync(fd);
  });

  it('bounds what waits: lines beyond maxBytes are dropped, not kept', () => {
    const fd = fs.openSync(path.join(dir, 'bounded.log'), 'w');
    const sink = logSink(fd, undefined, 10);
    sink.write('12345\n');
    sink.write('67890\n');
    expect(sink.dropped).toBe(1);
    sink.flushSync();
    fs.closeSync(fd);
  });
});
