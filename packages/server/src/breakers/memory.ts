// Breakers of one process: a map of entries; JavaScript's single thread makes each step atomic.
import { claim, newEntry, record, slotOf, windowSums, type Entry } from './policy';
import type { BreakerSettings, BreakerStatus, BreakerStore, BreakerView, Claim, Outcome } from './types';

export function createMemoryBreakers(): BreakerStore {
  const entries = new Map<string, Entry>();
  const entry = (id: string): Entry => {
    let e = entries.get(id);
    if (!e) entries.set(id, (e = newEntry()));
    return e;
  };
  return {
    view: (id: string): BreakerView | undefined => entries.get(id),
    record(id: string, outcome: Outcome, settings: BreakerSettings, now = Date.now()): undefined {
      record(entry(id), outcome, settings, now);
    },
    async claim(id: string, leaseMs: number, now = Date.now(), force = false): Promise<Claim> {
      return claim(entry(id), leaseMs, now, force);
    },
    async status(ids: readonly string[], settings: BreakerSettings, now = Date.now()): Promise<BreakerStatus[]> {
      return ids.map((id) => {
        const e = entries.get(id) ?? newEntry();
        const { calls, failures } = windowSums(e.counts, slotOf(now, settings.windowMs));
        return { id, state: e.state, retryAt: e.retryAt, probeUntil: e.probeUntil, coolUntil: e.coolUntil, calls, failures, lastError: e.last };
      });
    },
    async reset(): Promise<void> {
      entries.clear();
    },
    async close(): Promise<void> {},
  };
}
