// Injectable faults: per request with a directive in the prompt (`[[mock:status=500]]`), or per API
// key (and optionally model) through the control API, for a number of calls or until cleared.

export interface Fault {
  /** Answer with this HTTP status and an error body. */
  status?: number;
  /** Error message text of that error body. */
  error?: string;
  /** Error `code` in the body (e.g. insufficient_quota). */
  code?: string;
  /** With `status`: a `retry-after` header (seconds), a `retry-after-ms` header, or any headers (e.g.
   *  OpenAI's `x-ratelimit-reset-requests`), as a rate-limited upstream answers. */
  retry_after?: number;
  retry_after_ms?: number;
  headers?: Record<string, string>;
  /** Wait before answering (ms). */
  delay?: number;
  /** Never answer (the client's timeout must fire). */
  timeout?: boolean;
  /** Destroy the connection without an answer. */
  reset?: boolean;
  /** Streams: destroy the connection after this many content chunks. */
  fail_after?: number;
  /** Streams: after this many content chunks, send nothing more and hold the connection open (a
   *  stalled upstream: the client's idle timeout must fire). */
  stall_after?: number;
  /** Streams: number of content chunks, and the delay between them (ms). */
  chunks?: number;
  chunk_delay?: number;
  /** Leave usage out of the response (the gateway must count tokens itself). */
  no_usage?: boolean;
  /** Usage details the answer reports, in its family's words (`[[mock:cached=100]]`): prompt tokens read
   *  from the cache, written to it (for 5 minutes; `cache_write_1h` for an hour), and reasoning tokens —
   *  each on top of the counted prompt and answer. */
  cached?: number;
  cache_write?: number;
  cache_write_1h?: number;
  reasoning?: number;
  /** Answer with exactly this text instead of the echo. */
  reply?: string;
  /** Async tasks (tasks.ts), fixed at submission: the outcome, the poll that finishes it, the polls
   *  that still say `queued`, and the seconds of media reported. */
  task?: 'succeed' | 'fail' | 'stall';
  polls?: number;
  queued?: number;
  duration?: number;
}

export interface KeyFault extends Fault {
  key: string;
  model?: string;
  /** How many calls it applies to; absent = until cleared. */
  times?: number;
}

const NUMERIC = new Set(['status', 'retry_after', 'retry_after_ms', 'delay', 'fail_after', 'stall_after', 'chunks', 'chunk_delay', 'polls', 'queued', 'duration']);

const USAGE_DETAILS = new Set(['cached', 'cache_write', 'cache_write_1h', 'reasoning']);

/** The usage-detail directives as counts (0 when absent or not a number). */
export function usageDetails(fault: Fault): { cached: number; write5m: number; write1h: number; reasoning: number; any: boolean } {
  const n = (v: number | undefined) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);
  const d = { cached: n(fault.cached), write5m: n(fault.cache_write), write1h: n(fault.cache_write_1h), reasoning: n(fault.reasoning) };
  return { ...d, any: d.cached + d.write5m + d.write1h + d.reasoning > 0 };
}

/** Directives written into the prompt: `[[mock:status=500]] [[mock:error=boom]] [[mock:reset]]`. */
export function parseDirectives(text: string): Fault {
  const fault: Record<string, unknown> = {};
  for (const [, name, value] of text.matchAll(/\[\[mock:(\w+)(?:=([^\]]*))?\]\]/g)) {
    if (!name) continue;
    fault[name] = value === undefined ? true : NUMERIC.has(name) || USAGE_DETAILS.has(name) ? Number(value) : value;
  }
  return fault as Fault;
}

export class FaultBook {
  private faults: KeyFault[] = [];

  add(f: KeyFault): void {
    this.faults.push({ ...f });
  }

  clear(): void {
    this.faults = [];
  }

  /** The fault for this key and model, counting one use of it. */
  take(key: string, model: string): Fault | undefined {
    const i = this.faults.findIndex((f) => f.key === key && (!f.model || f.model === model));
    if (i < 0) return undefined;
    const f = this.faults[i]!;
    if (f.times !== undefined) {
      f.times -= 1;
      if (f.times <= 0) this.faults.splice(i, 1);
    }
    return f;
  }
}
