// In-process limiter for the embedded single-instance default. JavaScript runs admit() to the end
// without interleaving, so check-then-count is atomic without locks.
import type { AdmitResult, LimitScope, RateLimiter } from './types';
import { fits, planAdmit, planTokens, refusal, slotIndex, type PlannedWindow, type WindowShape } from './windows';

/** One window's ring of slot counts plus their running total (O(1) amortised per operation). */
class SlotRing {
  readonly ring: Float64Array;
  total = 0;
  constructor(
    readonly shape: WindowShape,
    /** Index of the newest slot the ring holds. */
    public head: number,
  ) {
    this.ring = new Float64Array(shape.slots + 1);
  }

  /** Moves the ring to slot `idx`, dropping the slots that left the window. */
  advance(idx: number): void {
    const gap = idx - this.head;
    if (gap <= 0) return; // same slot, or the clock stepped back: keep what we have
    const n = this.ring.length;
    if (gap >= n) {
      this.ring.fill(0);
      this.total = 0;
    } else {
      for (let s = this.head + 1; s <= idx; s++) {
        this.total -= this.ring[s % n];
        this.ring[s % n] = 0;
      }
    }
    this.head = idx;
  }

  add(idx: number, amount: number): void {
    this.advance(idx);
    if (idx <= this.head - this.ring.length) return; // older than the window (clock stepped back)
    this.ring[idx % this.ring.length] += amount;
    this.total += amount;
  }

  /** Un-counts from slot `idx` if that slot is still in the ring. */
  remove(idx: number, amount: number): void {
    if (idx > this.head || idx <= this.head - this.ring.length) return;
    const k = idx % this.ring.length;
    const taken = Math.min(amount, this.ring[k]);
    this.ring[k] -= taken;
    this.total -= taken;
  }

  /** Slot counts oldest first (for retry-after); only built on refusal. */
  counts(): number[] {
    const n = this.ring.length;
    const out = new Array<number>(n);
    for (let j = 0; j < n; j++) out[j] = this.ring[(this.head - n + 1 + j) % n];
    return out;
  }

  /** True once every slot it holds has left the window. */
  idle(now: number): boolean {
    return this.total <= 0 || (this.head + this.ring.length) * this.shape.slotMs <= now;
  }
}

export interface MemoryLimiterOptions {
  /**
   * Hard cap on live counters (one per scope × window, and per client IP for ips/ipm/ipd). Beyond it
   * the oldest-created counters are forgotten (those limits restart from zero) rather than letting a
   * flood of distinct IPs grow memory without bound.
   */
  maxCounters?: number;
}

export interface MemoryLimiter extends RateLimiter {
  /** Live counters, for tests and metrics. */
  readonly size: number;
}

const OK: AdmitResult = Object.freeze({ ok: true });
/** Idle counters are swept incrementally: at most this many entries per sweep, at most once a second. */
const SWEEP_BATCH = 10_000;
const SWEEP_EVERY_MS = 1_000;

export function createMemoryLimiter(options: MemoryLimiterOptions = {}): MemoryLimiter {
  const maxCounters = options.maxCounters ?? 1_000_000;
  const counters = new Map<string, SlotRing>();
  let sweepCursor: Iterator<[string, SlotRing]> | null = null;
  let lastSweep = 0;

  /** Incremental idle sweep once a second, plus the hard cap; both bounded per call. */
  function sweep(now: number): void {
    if (now - lastSweep >= SWEEP_EVERY_MS || now < lastSweep) {
      lastSweep = now;
      // Map iterators stay valid across deletes, so each sweep resumes where the last one stopped.
      sweepCursor ??= counters.entries();
      for (let i = 0; i < SWEEP_BATCH; i++) {
        const next = sweepCursor.next();
        if (next.done) {
          sweepCursor = null;
          break;
        }
        if (next.value[1].idle(now)) counters.delete(next.value[0]);
      }
    }
    // Over the cap: forget the oldest-created counters (Map keeps insertion order).
    if (counters.size > maxCounters) {
      for (const key of counters.keys()) {
        counters.delete(key);
        if (counters.size <= maxCounters) break;
      }
    }
  }

  function ring(w: PlannedWindow, idx: number): SlotRing {
    let r = counters.get(w.id);
    if (!r) {
      r = new SlotRing(w.shape, idx);
      counters.set(w.id, r);
    }
    return r;
  }

  return {
    get size() {
      return counters.size;
    },

    async admit(scopes: readonly LimitScope[], clientIp: string, now = Date.now()): Promise<AdmitResult> {
      sweep(now);
      const plan = planAdmit(scopes, clientIp);
      if (plan.length === 0) return OK;
      const rings = new Array<SlotRing>(plan.length);
      let blocked = false;
      for (let i = 0; i < plan.length; i++) {
        const w = plan[i];
        const r = ring(w, slotIndex(w.shape, now));
        r.advance(slotIndex(w.shape, now));
        rings[i] = r;
        if (!fits(w.kind, r.total, w.limit)) blocked = true;
      }
      if (blocked) return refusal(plan, rings.map((r) => r.counts()), now);

      // Everything fits: count the request in every request window (token windows are checked only).
      let counted = 0;
      for (let i = 0; i < plan.length; i++) {
        if (plan[i].kind !== 'r') continue;
        rings[i].add(slotIndex(plan[i].shape, now), 1);
        counted++;
      }
      if (counted === 0) return OK;
      let released = false;
      return {
        ok: true,
        release: async () => {
          if (released) return;
          released = true;
          for (let i = 0; i < plan.length; i++) if (plan[i].kind === 'r') rings[i].remove(slotIndex(plan[i].shape, now), 1);
        },
      };
    },

    async addTokens(scopes: readonly LimitScope[], tokens: number, now = Date.now()): Promise<void> {
      const amount = Math.round(tokens);
      if (!(amount > 0)) return;
      sweep(now);
      for (const w of planTokens(scopes)) {
        const idx = slotIndex(w.shape, now);
        ring(w, idx).add(idx, amount);
      }
    },

    async close(): Promise<void> {
      counters.clear();
      sweepCursor = null;
    },
  };
}
