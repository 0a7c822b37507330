// How many refusal rows (refusal-log.ts) a key may write. A key holder could send refused calls as fast
// as the network allows, and each would be a row: so each (key, reason) has a small token bucket, BURST
// rows at once and then one a second. Refusals past it are counted, and the next row of that key and
// reason says how many it stands for. The buckets are per instance: with N instances (Redis mode) the
// bound is N times this, still a constant per key.

/** Rows a key may write for one reason at once, and how fast that allowance comes back. */
const BURST = 10;
const REFILL_MS = 1000;
/** A bucket idle this long is full again and forgotten (with any count no later row reported). */
const IDLE_MS = 60_000;

interface Bucket {
  tokens: number;
  at: number;
  /** Refusals not logged since the last row of this key and reason. */
  dropped: number;
}

/** The per-(key, reason) allowance of refusal rows. */
export class RefusalThrottle {
  private readonly buckets = new Map<string, Bucket>();
  private swept = 0;

  /** How many earlier refusals the row stands for besides itself, or undefined when it is not to be written. */
  take(keyId: string, code: string, now: number): number | undefined {
    this.sweep(now);
    const id = `${keyId}|${code}`;
    let b = this.buckets.get(id);
    if (!b) this.buckets.set(id, (b = { tokens: BURST, at: now, dropped: 0 }));
    // Calls admitted together may stamp their refusals out of order: time never runs back for a bucket.
    if (now > b.at) {
      b.tokens = Math.min(BURST, b.tokens + (now - b.at) / REFILL_MS);
      b.at = now;
    }
    if (b.tokens < 1) {
      b.dropped++;
      return undefined;
    }
    b.tokens--;
    const dropped = b.dropped;
    b.dropped = 0;
    return dropped;
  }

  private sweep(now: number): void {
    if (now - this.swept < IDLE_MS) return;
    this.swept = now;
    for (const [id, b] of this.buckets) if (now - b.at >= IDLE_MS) this.buckets.delete(id);
  }
}
