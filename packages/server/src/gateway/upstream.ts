// The one place the gateway talks to upstreams: undici with pooled keep-alive connections.
import { Agent, request as undiciRequest, type Dispatcher } from 'undici';
import type { UpstreamError, UpstreamRequest } from '../providers/types';


export interface UpstreamReply {
  status: number;
  body: Dispatcher.ResponseData['body'];
  /** Needed where the answer is relayed as is (the audio of /v1/audio/speech keeps its content-type). */
  headers: Dispatcher.ResponseData['headers'];
  /** Milliseconds until the response headers arrived. */
  connMs: number;
}

export class UpstreamFailure extends Error {
  constructor(readonly error: UpstreamError) {
    super(error.message);
  }
}

export type Upstream = ReturnType<typeof createUpstream>;

/** One pool of keep-alive connections per app (closed with it). */
export function createUpstream() {
  const pool = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 300_000, connections: 256, pipelining: 1 });
  return { send: (req: UpstreamRequest, opts: SendOptions) => send(pool, req, opts), close: () => pool.close() };
}

interface SendOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** A body other than req.body (multipart uploads pass through as bytes). */
  rawBody?: Buffer;
  /** POST unless said otherwise; a GET (an async task's poll) sends no body. */
  method?: 'GET' | 'POST';
}

/** Sends; a network failure or timeout becomes an UpstreamFailure with status 0 (retryable). */
async function send(pool: Agent, req: UpstreamRequest, opts: SendOptions): Promise<UpstreamReply> {
  const started = performance.now();
  try {
    const res = await undiciRequest(req.url, {
      method: opts.method ?? 'POST',
      headers: req.headers,
      body: opts.method === 'GET' ? undefined : (opts.rawBody ?? req.body),
      dispatcher: pool,
      signal: opts.signal,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
    return { status: res.statusCode, body: res.body, headers: res.headers, connMs: performance.now() - started };
  } catch (err) {
    const e = err as { name?: string; code?: string; message?: string };
    if (opts.signal?.aborted) throw err;
    const timeout = e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.name === 'TimeoutError';
    throw new UpstreamFailure({ status: 0, type: 'upstream_error', code: timeout ? 'upstream_timeout' : (e.code ?? 'upstream_unreachable'), message: timeout ? 'The upstream did not answer in time.' : `The upstream could not be reached (${e.code ?? e.message ?? 'error'}).` });
  }
}
