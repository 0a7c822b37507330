import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { AttemptContext } from './attempt';
import { SseOut } from './relay';

describe('SseOut', () => {
  it('sends the first event at once, and the rest of the turn together after it', async () => {
    /** Bytes still waiting in the socket's buffer right after each write. */
    const waiting: number[] = [];
    const server = http.createServer((req, res) => {
      const ctx = { reply: { hijack: () => undefined, raw: res }, plan: { traceId: 'trace-1' }, signal: new AbortController().signal } as unknown as AttemptContext;
      const sse = new SseOut(ctx);
      // One upstream read of three events, relayed in one turn as the attempts do: from a promise's
      // continuation (the upstream's answer), each write another's.
      void (async () => {
        await Promise.resolve();
        for (const n of [1, 2, 3]) {
          await sse.write(`data: ${n}\n\n`);
          waiting.push(res.socket?.writableLength ?? -1);
        }
        sse.end();
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/`);
      expect(res.headers.get('x-trace-id')).toBe('trace-1');
      expect(await res.text()).toBe('data: 1\n\ndata: 2\n\ndata: 3\n\n');
      // node:http corks the socket until the tick ends: without the flush the first event waited there too.
      expect(waiting[0]).toBe(0);
      expect(waiting.slice(1).every((n) => n > 0)).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
