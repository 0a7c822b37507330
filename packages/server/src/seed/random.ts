// Seeded randomness for the data generator: one PRNG, so a `--seed` reproduces a data set exactly.

/** mulberry32: tiny, fast, good enough for synthetic data (not for secrets). */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** Log-normal with the given median and spread, clamped to [min, max] and rounded. */
  logNormal(median: number, sigma: number, min: number, max: number): number {
    return Math.min(max, Math.max(min, Math.round(median * Math.exp(sigma * this.normal()))));
  }
}

/** Sampling from fixed weights in O(log n): cumulative sums and a binary search. */
export class Weighted<T> {
  private readonly cumulative: number[] = [];
  private readonly total: number;

  constructor(readonly items: readonly T[], weights: readonly number[]) {
    let sum = 0;
    for (const w of weights) this.cumulative.push((sum += Math.max(0, w)));
    this.total = sum;
    if (!items.length || sum <= 0) throw new Error('Weighted: nothing to pick from');
  }

  pick(rng: Random): T {
    const x = rng.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo]!;
  }
}

/** Zipf weights 1/rank^s for ranks 1..n: a few heavy users and a long tail. */
export const zipf = (n: number, s: number) => Array.from({ length: n }, (_, i) => 1 / (i + 1) ** s);
