// One upstream request on undici's dispatcher, and its answer's body as it arrives. undici's `request()`
// wraps every answer in a Readable stream (its events, buffers and nextTicks), runs its callbacks in an
// AsyncResource and ties the caller's AbortSignal in through listeners of its own. A handler that keeps
// the chunks in an array took the gateway's CPU per call from ~247 to ~213 µs (docs/BENCHMARKS.md,
// seventh pass). Most answers are read whole; streamed ones are iterated chunk by chunk, with backpressure.
import { Readable } from 'node:stream';
import { errors, type Dispatcher } from 'undici';
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
 * How often the requests waiting on an upstream are held against their deadlines. undici's own timeouts
 * (`headersTimeout`, `bodyTimeout`) are checked on its timer wheel about as often, but make a timer object for
 * every request, which stays in the wheel ~0.5–1 s after its request has ended: ~6,000 of them at 12,000 calls a
 * second, each outliving the scavenges into the old space (docs/BENCHMARKS.md, thirtieth session). Here the
 * request's handler, alive anyway until its answer ends, is the entry, and leaves with it.
 */
const SWEEP_MS = 500;
/**
 * The first of the handlers with a deadline, each linked to the next: a list the handlers link themselves into,
 * not a Set. A Set's table, replaced as entries come and go, is left in the old space holding the handlers it
 * had, and a scavenge takes what an old object points to as alive: every call in flight, and all it held, was
 * promoted (the scavenges found 9.5 KB a call alive against 4.3; thirtieth session).
 */
let firstTimed: AnswerHandler | undefined;
let sweeper: NodeJS.Timeout | undefined;

function watch(handler: AnswerHandler): void {
  handler.nextTimed = firstTimed;
  if (firstTimed) firstTimed.prevTimed = handler;
  firstTimed = handler;
  sweeper ??= setInterval(sweep, SWEEP_MS).unref();
}

/** Out of the list (once), its links cleared: nothing of it is left for a scavenge to follow. */
function unwatch(handler: AnswerHandler): void {
  if (!handler.prevTimed && firstTimed !== handler) return;
  if (handler.prevTimed) handler.prevTimed.nextTimed = handler.nextTimed;
  else firstTimed = handler.nextTimed;
  if (handler.nextTimed) handler.nextTimed.prevTimed = handler.prevTimed;
  handler.prevTimed = handler.nextTimed = undefined;
}

function sweep(): void {
  const now = performance.now();
  for (let handler = firstTimed; handler; ) {
    const next = handler.nextTimed;
    handler.check(now);
    handler = next;
  }
  if (!firstTimed) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

export interface DispatchOptions {
  /** Aborts the request when the call is aborted. */
  signal?: CallSignal;
  /** What a failure before the answer's headers rejects with (an abort keeps its reason); undici's error otherwise. */
  failed?: (err: Error) => Error;
  /**
   * How long the upstream may keep silent, in ms: before the answer's headers (undici's HeadersTimeoutError;
   * counted from the dispatch, a wait for a free connection included, where undici counted from the request's
   * writing) and between two pieces of its body (BodyTimeoutError; not while the body's reader holds it back).
   * 0 or none: no limit. Give undici none of its own.
   */
  timeoutMs?: number;
}

/**
 * undici's handler of one request: what `dispatch` resolves or rejects, and the body it fills. An object of a
 * class, not an object literal of closures over dispatch's frame: those were five closures and their context
 * held by every call in flight, copied at every scavenge (docs/BENCHMARKS.md, twenty-ninth session,
 * `npm run bench:heap`). It listens to the call's signal, and keeps the request's deadline, itself.
 */
class AnswerHandler implements Dispatcher.DispatchHandler, AbortListener {
  private body: UpstreamBody | undefined;
  private controller: Dispatcher.DispatchController | undefined;
  /** Why the request was stopped before undici started it (an abort, a timeout): it is aborted when it starts. */
  private stopped: Error | undefined;
  /** `performance.now()` past which the upstream has been silent too long. */
  private deadline = 0;
  /** Its neighbours in the list of handlers with a deadline (`firstTimed`). */
  prevTimed: AnswerHandler | undefined;
  nextTimed: AnswerHandler | undefined;

  constructor(
    private readonly resolve: (answer: UpstreamAnswer) => void,
    private readonly reject: (err: Error) => void,
    private readonly o: DispatchOptions,
  ) {
    o.signal?.onAbort(this);
    if (o.timeoutMs) {
      this.refresh();
      watch(this);
    }
  }

  /** The upstream just spoke (or the request just left): its silence counts from now. */
  private refresh(now = performance.now()): void {
    if (this.o.timeoutMs) this.deadline = now + this.o.timeoutMs;
  }

  callAborted(reason: Error): void {
    this.stop(reason);
  }

  /** The sweep's look: past the deadline, the request fails as undici's own timeout would have failed it. */
  check(now: number): void {
    // A body its reader holds back (backpressure) is not the upstream's silence.
    if (this.controller?.paused) this.refresh(now);
    else if (now >= this.deadline) this.stop(this.body ? new errors.BodyTimeoutError() : new errors.HeadersTimeoutError());
  }

  private stop(reason: Error): void {
    if (this.controller) this.controller.abort(reason);
    else this.stopped ??= reason;
  }

  /** The answer has ended, whole or not: nothing to watch any more. */
  private ended(): void {
    this.o.signal?.offAbort(this);
    unwatch(this);
  }

  onRequestStart(c: Dispatcher.DispatchController): void {
    this.controller = c;
    if (this.stopped) c.abort(this.stopped);
  }

  onResponseStart(c: Dispatcher.DispatchController, status: number, headers: UpstreamAnswer['headers']): void {
    // 1xx answers are interim: the real one follows.
    if (status < 200) return;
    this.refresh();
    this.body = new UpstreamBody(c);
    this.resolve({ status, headers, body: this.body });
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    this.refresh();
    this.body?.push(chunk);
  }

  onResponseEnd(): void {
    this.ended();
    this.body?.end();
  }

  onResponseError(_c: Dispatcher.DispatchController | undefined, err: Error): void {
    this.ended();
    if (this.body) this.body.fail(err);
    // An abort keeps its reason: the caller tells the client's leaving by it.
    else this.reject(this.o.failed && !this.o.signal?.aborted ? this.o.failed(err) : err);
  }
}

/**
 * Dispatches one request; resolves at the answer's headers, rejects when it fails before them: with undici's
 * error (its connection errors carry their `code`, as do the timeouts), or what `o.failed` makes of it; an abort
 * with the signal's reason. One promise a request, no `async` frame around it (the gateway's upstream.ts passes
 * `failed` rather than catching and mapping in a frame of its own).
 */
export function dispatch(dispatcher: Dispatcher, opts: Dispatcher.DispatchOptions, o: DispatchOptions = {}): Promise<UpstreamAnswer> {
  return new Promise<UpstreamAnswer>((resolve, reject) => {
    if (o.signal?.aborted) return reject(o.signal.reason);
    const handler = new AnswerHandler(resolve, reject, o);
    try {
      dispatcher.dispatch(opts, handler);
    } catch (err) {
      handler.onResponseError(undefined, err as Error);
    }
  });
}
