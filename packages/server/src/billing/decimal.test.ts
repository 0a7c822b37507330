import { describe, expect, it } from 'vitest';
import { ceilSum, cleanBp, discount, priceTotal, toQuota } from './decimal';

describe('ceilSum', () => {
  it('rounds the exact sum up once', () => {
    expect(ceilSum([[1234, 0.25], [567, 1]])).toBe(876n); // 308.5 + 567 = 875.5
    expect(ceilSum([[3, 0.1]])).toBe(1n);
    expect(ceilSum([])).toBe(0n);
  });

  it('does not charge float noise: 100 × 0.07 is 7, not 7.000000000000001 → 8', () => {
    expect(Math.ceil(100 * 0.07)).toBe(8); // the trap
    expect(ceilSum([[100, 0.07]])).toBe(7n);
    expect(Math.ceil(100 * 1.1)).toBe(111);
    expect(ceilSum([[100, 1.1]])).toBe(110n);
    // a ratio carrying the console's ×500 noise is read back as the decimal the admin meant:
    // $0.00003 / 1K tokens × 500 = 0.015000000000000001
    expect(0.00003 * 500).not.toBe(0.015);
    expect(Math.ceil(1000 * (0.00003 * 500))).toBe(16);
    expect(ceilSum([[1000, 0.00003 * 500]])).toBe(15n);
  });

  it('handles tiny, huge and fractional values exactly', () => {
    expect(ceilSum([[1_000_000, 1e-7]])).toBe(1n); // 0.1 → 1
    expect(ceilSum([[10_000_000, 1e-7]])).toBe(1n); // exactly 1
    expect(ceilSum([[12.5, 50]])).toBe(625n);
    expect(ceilSum([[1e12, 1e9]])).toBe(10n ** 21n);
  });

  it('treats NaN, infinities and negatives as 0', () => {
    expect(ceilSum([[NaN, 1], [5, -2], [Infinity, 1], [-3, 4]])).toBe(0n);
  });
});

describe('discount', () => {
  it('is ceil(base × bp / 10000)', () => {
    expect(discount(876n, 8000)).toBe(701n); // 700.8
    expect(discount(1000n, 3333)).toBe(334n); // 333.3
    expect(discount(1000n, 10_000)).toBe(1000n);
    expect(discount(1000n, 0)).toBe(0n);
  });

  it('charges full price for a broken discount', () => {
    expect(cleanBp(NaN)).toBe(10_000);
    expect(cleanBp(undefined)).toBe(10_000);
    expect(cleanBp(-5)).toBe(0);
    expect(cleanBp(8000.4)).toBe(8000);
  });
});

describe('toQuota', () => {
  it('is a safe non-negative integer', () => {
    expect(toQuota(-1n)).toBe(0);
    expect(toQuota(10n ** 21n)).toBe(Number.MAX_SAFE_INTEGER);
    expect(toQuota(42n)).toBe(42);
  });
});

describe('priceTotal', () => {
  const slow = (items: { quantity: number; unit_price: number }[], bp: number) => {
    const base = ceilSum(items.map((i) => [i.quantity, i.unit_price] as const));
    return { base: toQuota(base), quota: toQuota(discount(base, bp)) };
  };

  it('answers what ceilSum then discount answer, on small, fractional, huge and broken values', () => {
    // A deterministic spread: token counts, per-token ratios as admins type them (0.0025, 7.5, 1/3), seconds,
    // whole fees, values near and past 2^53, NaN and negatives.
    const quantities = [0, 1, 7, 100, 4096, 123_456, 1e9, 2 ** 53 - 1, 2 ** 60, 12.5, 0.001, NaN, -3];
    const ratios = [0, 0.07, 0.0025, 7.5, 1 / 3, 2.5e-7, 15, 500, 1e12, 9_007_199.254740991, NaN, Infinity, -1];
    const bps = [10_000, 8_500, 1, 0, 12_345, NaN];
    let seed = 7;
    const pick = <T>(xs: T[]): T => xs[(seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % xs.length]!;
    for (let n = 0; n < 5000; n++) {
      const items = Array.from({ length: 1 + (n % 6) }, () => ({ quantity: pick(quantities), unit_price: pick(ratios) }));
      const bp = pick(bps);
      expect(priceTotal(items, bp), JSON.stringify({ items, bp })).toEqual(slow(items, bp));
    }
  });
});
