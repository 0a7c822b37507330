// The upstream request and its body against a real HTTP server that misbehaves on purpose: bodies in
// many pieces, a reader slower than the upstream, a reader that stops early, silence, aborts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallSignal } from './call-signal';
import { dispatch } from './upstream-call';

const CHUNK = Buffer.alloc(16 * 1024, 'x');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the server saw of the last request to each path: whether its client hung up, and how far it got. */
const seen = new Map<string, { closed: boolean; written: number; stalled: boolean }>();

const server = http.createServer((req, res) => {
  const path = req.url ?? '/';
  const state = { closed: false, written: 0, stalled: false };
  seen.set(path, state);
  res.on('close', () => (state.closed = true));
  if (path === '/pieces') {
    // 1 MiB in 64 pieces, a turn of the event loop apart.
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-pieces': '64' });
    let n = 0;
    const next = () => {
      if (n++ === 64) return res.end();
      res.write(CHUNK);
      setImmediate(next);
    };
    next();
  } else if (path === '/endless') {
    // Writes as fast as the client takes it, for ever; notes when the client stops taking it.
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const pump = () => {
      while (!state.closed) {
        state.written += CHUNK.length;
        if (!res.write(CHUNK)) {
          state.stalled = true;
          res.once('drain', () => {
            state.stalled = false;
            pump();
          });
          return;
        }
      }
    };
    pump();
  } else if (path === '/silent-body') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"partial":');
  } else if (path === '/never') {
    // No answer at all.
  } else {
    res.writeHead(404).end('no such path');
  }
});

let origin = '';
const agent = new Agent({ connections: 8 });
const call = (path: string, o: { signal?: CallSignal; timeoutMs?: number } = {}) =>
  dispatch(agent, { origin, path, method: 'GET', headersTimeout: 0, bodyTimeout: 0 }, { signal: o.signal, timeoutMs: o.timeoutMs ?? 10_000 });

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await agent.destroy();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('an upstream call (undici dispatch)', () => {
  it('answers with the status and headers, and reads a body of many pieces whole', async () => {
    const res = await call('/pieces');
    expect(res.status).toBe(200);
    expect(res.headers['x-pieces']).toBe('64');
    const bytes = await res.body.bytes();
    expect(bytes.length).toBe(64 * CHUNK.length);
    expect(bytes.every((b) => b === 0x78)).toBe(true);
  });

  it('reads a body once: a second read is refused', async () => {
    const res = await call('/nope');
    expect(res.status).toBe(404);
    expect(await res.body.text()).toBe('no such path');
    await expect(res.body.text()).rejects.toThrow(/already read/);
  });

  it('iterates a body chunk by chunk, and stops reading the socket while its reader is slow', async () => {
    const res = await call('/endless');
    const iterator = res.body[Symbol.asyncIterator]();
    await iterator.next();
    // The reader pauses: the upstream must feel it (its writes stop once the sockets' buffers are full)
    // instead of the gateway taking in the endless body.
    const state = seen.get('/endless')!;
    let before = -1;
    for (let i = 0; i < 50 && !(state.stalled && state.written === before); i++) {
      before = state.written;
      await sleep(100);
    }
    expect(state.stalled).toBe(true);
    expect(state.written).toBe(before);
    // Reading again lets it go on.
    let read = 0;
    const target = 2 * before;
    while (read < target) read += ((await iterator.next()).value as Buffer).length;
    expect(state.written).toBeGreaterThan(before);
    await iterator.return(undefined);
  });

  it('aborts the request when its reader stops early, freeing the connection', async () => {
    const res = await call('/endless');
    for await (const chunk of res.body) {
      expect(chunk.length).toBeGreaterThan(0);
      break;
    }
    const state = seen.get('/endless')!;
    for (let i = 0; i < 100 && !state.closed; i++) await sleep(20);
    expect(state.closed).toBe(true);
  });

  it('rejects with the signal\'s reason when aborted before the answer, and hangs up', async () => {
    const abort = new CallSignal();
    const pending = call('/never', { signal: abort });
    await sleep(50);
    abort.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    const state = seen.get('/never')!;
    for (let i = 0; i < 100 && !state.closed; i++) await sleep(20);
    expect(state.closed).toBe(true);
  });

  it('rejects at once when the signal was aborted before the call', async () => {
    const abort = new CallSignal();
    abort.abort();
    await expect(call('/pieces', { signal: abort })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('fails the body when aborted while it is read', async () => {
    const abort = new CallSignal();
    const res = await call('/silent-body', { signal: abort });
    const reading = res.body.text();
    abort.abort();
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('fails the body with undici\'s body timeout when the upstream falls silent', async () => {
    const res = await call('/silent-body', { timeoutMs: 300 });
    await expect(res.body.json()).rejects.toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' });
  });

  it('does not time out a body its reader holds back longer than the timeout', async () => {
    const res = await call('/endless', { timeoutMs: 300 });
    const iterator = res.body[Symbol.asyncIterator]();
    await iterator.next();
    // The reader holds the body back (the socket paused) for twice the timeout: the upstream was not silent.
    await sleep(800);
    let read = 0;
    while (read < 256 * 1024) read += ((await iterator.next()).value as Buffer).length;
    await iterator.return(undefined);
  });

  it('times out only the silent requests among many, whichever order the others end in', async () => {
    // The last one sent heads the list of deadlines and ends first.
    const paths = ['/never', '/pieces', '/silent-body', '/pieces', '/never', '/pieces'];
    const outcomes = await Promise.allSettled(paths.map((p) => call(p, { timeoutMs: 300 }).then((res) => res.body.bytes())));
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value.length : (o.reason as { code?: string }).code))).toEqual([
      'UND_ERR_HEADERS_TIMEOUT',
      64 * CHUNK.length,
      'UND_ERR_BODY_TIMEOUT',
      64 * CHUNK.length,
      'UND_ERR_HEADERS_TIMEOUT',
      64 * CHUNK.length,
    ]);
  });

  it('fails with undici\'s headers timeout when no answer comes', async () => {
    await expect(call('/never', { timeoutMs: 300 })).rejects.toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
  });
});
