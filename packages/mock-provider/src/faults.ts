// Injectable faults: per request with a directive in the prompt (`[[mock:status=500]]`), or per API
// key (and optionally model) through the control API, for a number of calls or until cleared.

export interface Fault {
  /** Answer with this HTTP status and an error body. */
  status?: number;
  /** Error message text of that error body. */
  error?: string;
  /** Error `code` in the body (e.g. insufficient_quota). */
  code?: string;
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

const NUMERIC = new Set(['status', 'delay', 'fail_after', 'stall_after', 'chunks', 'chunk_delay', 'polls', 'queued', 'duration']);

/** Directives written into the prompt: `[[mock:status=500]] [[mock:error=boom]] [[mock:reset]]`. */
export function parseDirectives(text: string): Fault {
  const fault: Record<string, unknown> = {};
  for (const [, name, value] of text.matchAll(/\[\[mock:(\w+)(?:=([^\]]*))?\]\]/g)) {
    if (!name) continue;
    fault[name] = value === undefined ? true : NUMERIC.has(name) ? Number(value) : value;
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
