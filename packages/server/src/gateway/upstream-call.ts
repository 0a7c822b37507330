// One upstream request on undici's dispatcher, and its answer's body as it arrives. undici's `request()`
// wraps every answer in a Readable stream (its events, buffers and nextTicks), runs its callbacks in an
// AsyncResource and ties the caller's AbortSignal in through listeners of its own. A handler that keeps
// the chunks in an array took the gateway's CPU per call from ~247 to ~213 µs (docs/BENCHMARKS.md,
// seventh pass). Most answers are read whole; streamed ones are iterated chunk by chunk, with backpressure.
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { AbortListener, CallSignal } from './call-signal';

/** Bytes an answer may queue while nobody reads it before undici stops reading its socket. */
const HIGH_WATER = 64 * 1024;

/** The answer's body: read it whole once (`text`, `json`, `bytes`), or iterate it once, chunk by chunk. */
class UpstreamBody implements AsyncIterable<Buffer> {
  private chunks: Buffer[] = [];
  private queued = 0;
  private ended = false;
  private error: Error | undefined;
  /** A whole read is waiting: the body is wanted entirely, so the socket is never paused for it. */
  private whole = false;
  private used = false;
  /** The reader waiting for the next chunk, the end or an error. */
  private wake: (() => void) | undefined;

  constructor(private readonly controller: Dispatcher.DispatchController) {}

  /** @internal the handler's side */
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.queued += chunk.length;
    if (!this.whole && this.queued > HIGH_WATER) this.controller.pause();
    this.notify();
  }

  /** @internal */
  end(): void {
    this.ended = true;
    this.notify();
  }

  /** @internal */
  fail(err: Error): void {
    this.error ??= err;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private next(): Promise<void> {
    return new Promise<void>((resolve) => (this.wake = resolve));
  }

  private claim(): void {
    if (this.used) throw new TypeError('The upstream body was already read.');
    this.used = true;
  }

  /** The whole body. */
  async bytes(): Promise<Buffer> {
    this.claim();
    this.whole = true;
    this.controller.resume();
    while (!this.ended && !this.error) await this.next();
    if (this.error) throw this.error;
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.queued);
  }

  // Chained, not async: every non-streamed answer is read through these, and each async layer was two promises more.
  text(): Promise<string> {
    return this.bytes().then((b) => b.toString('utf8'));
  }

  json(): Promise<unknown> {
    return this.bytes().then((b) => JSON.parse(b.toString('utf8')) as unknown);
  }

  /** Chunk by chunk; stopping early (a break, a throw) aborts the request and frees its connection. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
    this.claim();
    try {
      for (;;) {
        const chunk = this.chunks.shift();
        if (chunk) {
          this.queued -= chunk.length;
          if (this.controller.paused && this.queued <= HIGH_WATER / 2) this.controller.resume();
          yield chunk;
          continue;
        }
        if (this.error) throw this.error;
        if (this.ended) return;
        await this.next();
      }
    } finally {
      if (!this.ended && !this.error) this.controller.abort(new Error('The upstream body was not read to its end.'));
    }
  }

  /** A byte stream of the body, for relaying it as it is. */
  stream(): Readable {
    return Readable.from(this, { objectMode: false });
  }
}

export interface UpstreamAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: UpstreamBody;
}

/**
 * undici's handler of one request: what `dispatch` resolves or rejects, and the body it fills. An object of a
 * class, not an object literal of closures over dispatch's frame: those were five closures and their context
 * held by every call in flight, copied at every scavenge (docs/BENCHMARKS.md, twenty-ninth session,
 * `npm run bench:heap`). It listens to the call's signal itself, for the same reason.
 */
class AnswerHandler implements Dispatcher.DispatchHandler, AbortListener {
  private body: UpstreamBody | undefined;
  private controller: Dispatcher.DispatchController | undefined;

  constructor(
    private readonly resolve: (answer: UpstreamAnswer) => void,
    private readonly reject: (err: Error) => void,
    private readonly signal: CallSignal | undefined,
    private readonly failed: ((err: Error) => Error) | undefined,
  ) {
    signal?.onAbort(this);
  }

  callAborted(reason: Error): void {
    this.controller?.abort(reason);
  }

  onRequestStart(c: Dispatcher.DispatchController): void {
    this.controller = c;
    if (this.signal?.aborted) c.abort(this.signal.reason!);
  }

  onResponseStart(c: Dispatcher.DispatchController, status: number, headers: UpstreamAnswer['headers']): void {
    // 1xx answers are interim: the real one follows.
    if (status < 200) return;
    this.body = new UpstreamBody(c);
    this.resolve({ status, headers, body: this.body });
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    this.body?.push(chunk);
  }

  onResponseEnd(): void {
    this.signal?.offAbort(this);
    this.body?.end();
  }

  onResponseError(_c: Dispatcher.DispatchController | undefined, err: Error): void {
    this.signal?.offAbort(this);
    if (this.body) this.body.fail(err);
    // An abort keeps its reason: the caller tells the client's leaving by it.
    else this.reject(this.failed && !this.signal?.aborted ? this.failed(err) : err);
  }
}

/**
 * Dispatches one request; resolves at the answer's headers, rejects when it fails before them: with undici's
 * error (its timeouts and connection errors carry their `code`), or what `failed` makes of it; an abort with
 * the signal's reason. One promise a request, no `async` frame around it (the gateway's upstream.ts passes
 * `failed` rather than catching and mapping in a frame of its own).
 */
export function dispatch(dispatcher: Dispatcher, opts: Dispatcher.DispatchOptions, signal?: CallSignal, failed?: (err: Error) => Error): Promise<UpstreamAnswer> {
  return new Promise<UpstreamAnswer>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const handler = new AnswerHandler(resolve, reject, signal, failed);
    try {
      dispatcher.dispatch(opts, handler);
    } catch (err) {
      handler.onResponseError(undefined, err as Error);
    }
  });
}
