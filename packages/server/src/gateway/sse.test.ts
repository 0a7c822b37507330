import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../providers/types';
import { formatEvent, readEvents } from './sse';

const enc = new TextEncoder();

async function collect(source: Parameters<typeof readEvents>[0]): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of readEvents(source)) out.push(e);
  return out;
}

async function* pieces(...parts: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield typeof p === 'string' ? enc.encode(p) : p;
}

describe('readEvents', () => {
  it('parses events split across chunks, with event names, comments and CRLF', async () => {
    const events = await collect(pieces(': keep-alive\n\nevent: message_start\r\nda', 'ta: {"a":1}\r\n\r\ndata: line1\ndata: line2\n', '\ndata: [DONE]\n\n'));
    expect(events).toEqual([{ event: 'message_start', data: '{"a":1}' }, { data: 'line1\nline2' }, { data: '[DONE]' }]);
  });

  it('keeps multi-byte characters split between chunks', async () => {
    const bytes = enc.encode('data: {"t":"héllo 世界"}\n\n');
    const cut = bytes.indexOf(0xe4) + 1; // inside 世
    expect(await collect(pieces(bytes.slice(0, cut), bytes.slice(cut)))).toEqual([{ data: '{"t":"héllo 世界"}' }]);
  });

  it('delivers a last event without its closing blank line', async () => {
    expect(await collect(pieces('data: a\n\ndata: b'))).toEqual([{ data: 'a' }, { data: 'b' }]);
  });

  it('reads a web ReadableStream and cancels it when the reader stops early', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(enc.encode('data: x\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    let n = 0;
    for await (const e of readEvents(stream)) {
      expect(e).toEqual({ data: 'x' });
      if (++n === 3) break;
    }
    expect(cancelled).toBe(true);
  });

  it('reads a finished ReadableStream to the end', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(enc.encode('event: ping\ndata: {}\n\n'));
        controller.close();
      },
    });
    expect(await collect(stream)).toEqual([{ event: 'ping', data: '{}' }]);
  });
});

describe('formatEvent', () => {
  it('writes data frames, JSON-encoding objects', () => {
    expect(formatEvent({ a: 1 })).toBe('data: {"a":1}\n\n');
    expect(formatEvent('[DONE]')).toBe('data: [DONE]\n\n');
    expect(formatEvent({ type: 'message_stop' }, 'message_stop')).toBe('event: message_stop\ndata: {"type":"message_stop"}\n\n');
  });

  it('splits multi-line text so it round-trips', async () => {
    const frame = formatEvent('a\nb\r\nc', 'x');
    expect(frame).toBe('event: x\ndata: a\ndata: b\ndata: c\n\n');
    expect(await collect(pieces(frame))).toEqual([{ event: 'x', data: 'a\nb\nc' }]);
  });
});
