// The one place the gateway talks to upstreams: undici with pooled keep-alive connections, direct or
// through the system config's HTTP proxy (docs/SPEC.md §3.15.2), with its timeout cap.
import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import type { HttpSection } from '@fastgate/core/sys-config';
import { boundedMemo } from '../memo';
import type { UpstreamError, UpstreamRequest } from '../providers/types';
import type { CallSignal } from './call-signal';
import { dispatch, type UpstreamAnswer } from './upstream-call';

/** A 2xx-or-error answer at its headers, its body still to read. */
export type UpstreamReply = UpstreamAnswer;

export class UpstreamFailure extends Error {
  constructor(readonly error: UpstreamError) {
    super(error.message);
  }
}

export type Upstream = ReturnType<typeof createUpstream>;

const POOL = { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 300_000, connections: 256, pipelining: 1 } as const;

/**
 * The pools of one app (closed with it): the direct one, and one per proxy URL while that URL is the
 * configured one. `http()` reads the current `http` section (the snapshot's, so every instance follows
 * a change); when the URL changes the old proxy pool closes once its requests in flight are done.
 */
export function createUpstream(http: () => HttpSection) {
  const direct = new Agent(POOL);
  let proxied: { url: string; pool: ProxyAgent } | undefined;
  const dispatcher = (): Dispatcher => {
    const url = http().proxy_url;
    if (!url) return direct;
    if (proxied?.url !== url) {
      void proxied?.pool.close().catch(() => undefined);
      proxied = { url, pool: new ProxyAgent({ uri: url, ...POOL }) };
    }
    return proxied.pool;
  };
  return {
    send: (req: UpstreamRequest, opts: SendOptions) => send(dispatcher(), req, opts, capped(opts.timeoutMs, http().timeout)),
    close: async () => {
      await Promise.all([direct.close(), proxied?.pool.close()]);
    },
  };
}

/** The caller's limit (base.short_timeout / long_timeout, or a job's own), cut to `http.timeout` seconds when that is set (0 = no cap). */
function capped(timeoutMs: number, capSeconds: number): number {
  return capSeconds > 0 ? Math.min(timeoutMs, capSeconds * 1000) : timeoutMs;
}

interface SendOptions {
  timeoutMs: number;
  signal?: CallSignal;
  /** A body other than req.body (multipart uploads pass through as bytes). */
  rawBody?: Buffer;
  /** POST unless said otherwise; a GET (an async task's poll) sends no body. */
  method?: 'GET' | 'POST';
}

/**
 * The origin and path of each URL sent to: a few per agent (its base URL × the endpoints), so parsed
 * once. A `URL` a call cost ~2 KB of garbage and ~1.5 µs (docs/BENCHMARKS.md, eleventh pass). Bounded,
 * as task polls put their upstream ids in the path.
 */
const destination = boundedMemo(1024, (href: string) => {
  const url = new URL(href);
  return { origin: url.origin, path: url.pathname + url.search };
});

/**
 * A request body's bytes. undici encodes a string body as UTF-8 character by character (~200 µs for an
 * agent's 150 KB request on Node 20); a text of ASCII only, what JSON.stringify makes of most requests,
 * has the same bytes in Latin-1, which is a copy (its UTF-8 length, counted natively, tells: ~55 µs in all;
 * docs/BENCHMARKS.md, twenty-sixth session). Any other text goes as it is.
 */
export function bodyBytes(body: string): string | Buffer {
  return Buffer.byteLength(body) === body.length ? Buffer.from(body, 'latin1') : body;
}

/**
 * Sends; a network failure or timeout rejects with an UpstreamFailure with status 0 (retryable), an abort
 * with the signal's reason. Not `async`: the request's own promise is the call's, with nothing around it to
 * hold while the upstream answers.
 */
function send(pool: Dispatcher, req: UpstreamRequest, opts: SendOptions, timeoutMs: number): Promise<UpstreamReply> {
  let where: { origin: string; path: string };
  try {
    where = destination(req.url);
  } catch (err) {
    return Promise.reject(unreachable(err as Error));
  }
  const body = opts.method === 'GET' ? undefined : (opts.rawBody ?? bodyBytes(req.body));
  // undici's own timeouts off: dispatch keeps the deadline (upstream-call.ts SWEEP_MS says why).
  return dispatch(pool, { origin: where.origin, path: where.path, method: opts.method ?? 'POST', headers: req.headers, body, headersTimeout: 0, bodyTimeout: 0 }, { signal: opts.signal, failed: unreachable, timeoutMs });
}

/** undici's failure to get an answer (a timeout, a refused or broken connection, a bad URL) as the retryable UpstreamFailure. */
function unreachable(err: Error): UpstreamFailure {
  const e = err as { name?: string; code?: string; message?: string };
  const timeout = e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.name === 'TimeoutError';
  return new UpstreamFailure({ status: 0, type: 'upstream_error', code: timeout ? 'upstream_timeout' : (e.code ?? 'upstream_unreachable'), message: timeout ? 'The upstream did not answer in time.' : `The upstream could not be reached (${e.code ?? e.message ?? 'error'}).` });
}
