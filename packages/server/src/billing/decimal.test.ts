import { describe, expect, it } from 'vitest';
import { ceilSum, cleanBp, discount, toQuota } from './decimal';

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
