// What every endpoint's attempt does the same way: send upstream and turn a network failure or an error
// answer into a retryable Failed, read a JSON answer defensively, and write an SSE stream to the client
// (headers only at the first event, so an attempt that fails before it can still be retried).
import { providers } from '../providers/index';
import type { UpstreamError, UpstreamRequest } from '../providers/types';
import type { Gateway } from './gateway';
import { retryAfterMs } from './retry-after';
import type { AttemptContext, Failed } from './attempt';
import { UpstreamFailure, type UpstreamReply } from './upstream';

export const failure = (error: UpstreamError): Failed => ({ kind: 'failed', error });

/**
 * An upstream's own text with the key it was sent replaced by the key's mask: some providers echo the
 * key in their errors, and those texts reach the client, the call log and the server log.
 */
export function withoutKey(key: { key: string; key_mask: string }, text: string): string {
  return key.key && text.includes(key.key) ? text.split(key.key).join(key.key_mask) : text;
}

export const badUpstreamBody = (): Failed =>
  failure({ status: 502, type: 'upstream_error', code: 'bad_upstream_response', message: 'The upstream answered with a body the gateway could not read.' });

/**
 * Reads an error answer into a Failed, in the route family's error vocabulary, with how long the
 * upstream asked to wait (its headers), which cools the key down and reaches the client.
 */
async function failedAnswer(ctx: AttemptContext, status: number, body: { text(): Promise<string> }, headers: UpstreamReply['headers'] = {}): Promise<Failed> {
  const text = withoutKey(ctx.route.key, await body.text().catch(() => ''));
  const error = providers[ctx.route.family].mapError(status, text);
  const wait = retryAfterMs(headers);
  return failure(wait === undefined ? error : { ...error, retryAfterMs: wait });
}

/** Sends one attempt; a 2xx reply comes back, anything else is a Failed the retry loop judges. */
export async function sendOrFail(gw: Gateway, ctx: AttemptContext, req: UpstreamRequest, rawBody?: Buffer): Promise<UpstreamReply | Failed> {
  let res: UpstreamReply;
  try {
    res = await gw.upstream.send(req, { timeoutMs: ctx.timeoutMs, signal: ctx.signal, rawBody });
  } catch (err) {
    if (err instanceof UpstreamFailure) return failure(err.error);
    throw err;
  }
  if (res.status >= 400) return failedAnswer(ctx, res.status, res.body, res.headers);
  return res;
}

export const isFailed = (x: unknown): x is Failed => typeof x === 'object' && x !== null && (x as Failed).kind === 'failed';

/** The JSON body of a successful reply, or undefined when it is not JSON. */
export function readJson(res: UpstreamReply): Promise<unknown> {
  return res.body.json().catch(() => undefined);
}

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' };

/** The client side of a stream: hijacks the reply at the first write, honours backpressure. */
export class SseOut {
  started = false;
  /** Whether the first event was written (and sent at once). */
  private sent = false;

  constructor(private readonly ctx: AttemptContext) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    this.ctx.reply.hijack();
    // A hijacked reply loses the headers set through Fastify (ops/observe.ts), so the ids go again.
    const id = this.ctx.plan.traceId;
    this.ctx.reply.raw.writeHead(200, { ...SSE_HEADERS, 'x-trace-id': id, 'x-request-id': id });
  }

  async write(text: string): Promise<void> {
    this.start();
    const raw = this.ctx.reply.raw;
    const ok = raw.write(text);
    // The first event leaves now: node:http corks the socket until the tick ends, and an upstream's first
    // read often holds several events, each parsed and written again before the client got a byte.
    if (!this.sent) {
      this.sent = true;
      raw.socket?.uncork();
    }
    if (!ok && !this.ctx.signal.aborted) await new Promise<void>((r) => raw.once('drain', () => r()));
  }

  end(): void {
    if (this.started) this.ctx.reply.raw.end();
  }
}

/** A stream that broke before anything reached the client: another key may do better. */
export const brokenStream = (err: unknown): Failed =>
  failure({ status: 0, type: 'upstream_error', code: 'upstream_stream_broken', message: `The upstream stream broke: ${(err as Error).message}` });

export const emptyStream = (): Failed => failure({ status: 502, type: 'upstream_error', code: 'empty_stream', message: 'The upstream ended the stream without an answer.' });
