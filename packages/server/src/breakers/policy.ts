// The breaker's rules, pure: a sliding window of SLOTS slots counting calls and transient failures; a
// closed breaker opens when failures reach the error rate of at least minCalls calls (an agent's: and
// come from enough different keys, see Outcome.keysNeeded); an open one lets
// one probe through once its wait is over (half-open); the probe's success closes it (window cleared),
// its failure opens it again for twice the wait. The memory store runs these functions; the Redis
// store's Lua (redis.ts) is the same rules, atomic across instances.
import type { BreakerSettings, BreakerView, Claim, LastError, Outcome } from './types';

export const SLOTS = 6;
/** A failed probe doubles the wait up to this (or the configured cool-down, when longer). */
export const MAX_COOLDOWN_MS = 600_000;

export const slotOf = (now: number, windowMs: number): number => Math.floor(now / (windowMs / SLOTS));

export type Availability = { ok: true; probe: boolean } | { ok: false; until: number; cooling: boolean };

/** The common answers, shared: every pick asks for each candidate key and agent. */
const OPEN: Availability = Object.freeze({ ok: true, probe: false });
const PROBE: Availability = Object.freeze({ ok: true, probe: true });

/** May a request go there now, and must it claim the probe first? If not, until when (and why). A breaker never used may go. */
export function availability(v: BreakerView | undefined, now: number): Availability {
  if (!v) return OPEN;
  const cool = v.coolUntil > now ? v.coolUntil : 0;
  // A probe in flight may answer any moment: worth asking again within a second.
  const breaker = v.state === 'open' && v.retryAt > now ? v.retryAt : v.state === 'half_open' && v.probeUntil > now ? Math.min(v.probeUntil, now + 1000) : 0;
  if (breaker && breaker >= cool) return { ok: false, until: breaker, cooling: false };
  if (cool) return { ok: false, until: cool, cooling: true };
  return v.state !== 'closed' ? PROBE : OPEN;
}

/** One breaker's whole state (memory store; the Redis hash holds the same fields). */
export interface Entry extends BreakerView {
  backoff: number;
  /** Slot → [calls, failures]. */
  counts: Map<number, [number, number]>;
  /** An agent's keys that failed in the window → the slot of their last failure. */
  failingKeys: Map<string, number>;
  last: LastError | null;
}

export const newEntry = (): Entry => ({ state: 'closed', retryAt: 0, probeUntil: 0, coolUntil: 0, backoff: 0, counts: new Map(), failingKeys: new Map(), last: null });

/** Calls and failures in the window ending at `slot`. */
export function windowSums(counts: Map<number, [number, number]>, slot: number): { calls: number; failures: number } {
  let calls = 0;
  let failures = 0;
  for (const [s, [c, f]] of counts) {
    if (s > slot - SLOTS && s <= slot) {
      calls += c;
      failures += f;
    }
  }
  return { calls, failures };
}

const nextBackoff = (backoff: number, s: BreakerSettings): number => Math.min(Math.max(backoff * 2, s.cooldownMs), Math.max(MAX_COOLDOWN_MS, s.cooldownMs));

const trips = (calls: number, failures: number, s: BreakerSettings): boolean => calls >= s.minCalls && failures * 100 >= s.errorRatePct * calls;

function open(e: Entry, wait: number, now: number): void {
  Object.assign(e, { state: 'open', backoff: wait, retryAt: now + wait, probeUntil: 0 });
}

/** Applies one outcome. */
export function record(e: Entry, o: Outcome, s: BreakerSettings, now: number): void {
  const slot = slotOf(now, s.windowMs);
  for (const k of e.counts.keys()) if (k <= slot - SLOTS) e.counts.delete(k);
  for (const [k, last] of e.failingKeys) if (last <= slot - SLOTS) e.failingKeys.delete(k);
  if (o.kind === 'fail' && o.key) e.failingKeys.set(o.key, slot);
  if (o.kind !== 'neutral') {
    const counts = e.counts.get(slot);
    const failed = o.kind === 'fail' ? 1 : 0;
    if (counts) {
      counts[0]++;
      counts[1] += failed;
    } else e.counts.set(slot, [1, failed]);
  }
  if (o.coolMs && o.coolMs > 0) e.coolUntil = Math.max(e.coolUntil, now + o.coolMs);
  if (o.error) e.last = { ...o.error, at: now };
  if (o.probe && e.state === 'half_open') {
    if (o.kind === 'ok') Object.assign(e, { state: 'closed', retryAt: 0, probeUntil: 0, backoff: 0, counts: new Map(), failingKeys: new Map() });
    else if (o.kind === 'fail') open(e, nextBackoff(e.backoff, s), now);
    else e.probeUntil = 0;
    return;
  }
  if (o.kind === 'fail' && e.state === 'closed' && !o.hold) {
    const { calls, failures } = windowSums(e.counts, slot);
    if (trips(calls, failures, s) && e.failingKeys.size >= (o.keysNeeded ?? 0)) open(e, s.cooldownMs, now);
  }
}

export function claim(e: Entry, leaseMs: number, now: number, force = false): Claim {
  if (e.state === 'closed') return 'closed';
  if (force || (e.state === 'open' && e.retryAt <= now) || (e.state === 'half_open' && e.probeUntil <= now)) {
    Object.assign(e, { state: 'half_open', probeUntil: now + leaseMs });
    return 'probe';
  }
  return 'busy';
}
