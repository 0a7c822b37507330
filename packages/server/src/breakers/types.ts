// Circuit breakers and cool-downs per provider key and per model agent (issue 13): the public shapes
// of the store (memory for one process, Redis shared by every instance, like limits/). A breaker id is
// `key:<id>` or `agent:<id>`. Picking reads a local view synchronously (the hot path does no I/O);
// outcomes and probe claims go to the store.
import type { BreakerState } from '@fastgate/core/entities/breaker';
import { boundedMemo } from '../memo';

/**
 * The breaker ids of a provider key and of a model agent, made once per key or agent: each call looks its
 * breakers up several times (pick, probe claims, the report), and a template string each time was a new
 * string to allocate, flatten and hash for the map. Keys and agents number what the catalogue holds.
 */
export const keyBreaker = boundedMemo(10_000, (id: string) => `key:${id}`);
export const agentBreaker = boundedMemo(10_000, (id: string) => `agent:${id}`);

export type { BreakerState };

/** What picking needs to know, all times epoch ms (0 = none). */
export interface BreakerView {
  state: BreakerState;
  /** Open: when one request may probe. */
  retryAt: number;
  /** Half-open: the probe in flight holds the breaker until then (a lost probe frees it). */
  probeUntil: number;
  /** The upstream asked to wait (429 retry-after): not asked before then, whatever the state. */
  coolUntil: number;
}

export interface BreakerSettings {
  /** Opens at or above this share of failures (percent)… */
  errorRatePct: number;
  /** …of at least this many calls in the window. */
  minCalls: number;
  /** First wait before a probe; a failed probe doubles it up to MAX_COOLDOWN_MS. */
  cooldownMs: number;
  windowMs: number;
}

export interface LastError {
  status: number;
  code: string;
  message: string;
  at: number;
}

/**
 * One attempt's outcome. `fail` = transient (429, 5xx, timeout), `ok` = answered, `neutral` = says
 * nothing about the upstream (a bad request, a key disabled for auth/quota, a client that left).
 */
export interface Outcome {
  kind: 'ok' | 'fail' | 'neutral';
  /** The attempt was this breaker's half-open probe. */
  probe: boolean;
  /** Never opens (is_never_disable): counted and shown only. */
  hold?: boolean;
  /** Cool down this long (the upstream's retry-after). */
  coolMs?: number;
  /**
   * An agent's breaker: the key the attempt used, and how many different keys must have failed in the
   * window before it opens (so one bad key, which its own breaker takes out, does not take out its agent).
   */
  key?: string;
  keysNeeded?: number;
  error?: Omit<LastError, 'at'>;
}

/** The outcome of asking to probe: go as the probe, go as a normal call (it closed meanwhile), or not now. */
export type Claim = 'probe' | 'closed' | 'busy';

/** What the console shows. */
export interface BreakerStatus extends BreakerView {
  id: string;
  /** Calls and transient failures in the window. */
  calls: number;
  failures: number;
  lastError: LastError | null;
}

export interface BreakerStore {
  /** The local view (undefined = closed, never cooled): synchronous, for picking. */
  view(id: string): BreakerView | undefined;
  /** Counts an outcome: undefined when that is done at once (every call's success, on either store), else its write. */
  record(id: string, outcome: Outcome, settings: BreakerSettings, now?: number): Promise<void> | undefined;
  /**
   * Takes the half-open probe of an open breaker whose wait is over, for `leaseMs`; `force` takes it
   * whatever the wait (an admin's test request).
   */
  claim(id: string, leaseMs: number, now?: number, force?: boolean): Promise<Claim>;
  status(ids: readonly string[], settings: BreakerSettings, now?: number): Promise<BreakerStatus[]>;
  /** Forgets every breaker (tests; an operator's clean slate). */
  reset(): Promise<void>;
  close(): Promise<void>;
}
