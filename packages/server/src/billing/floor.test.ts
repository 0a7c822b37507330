import { describe, expect, it } from 'vitest';
import { billedDiscount, floorCost } from './floor';

describe('billedDiscount', () => {
  it('stacks a VIP level on the group and never goes below the floor', () => {
    // A group stored at 0 % for a reseller's user with the default floor: list price.
    expect(billedDiscount(0, undefined, 10_000)).toBe(10_000);
    // 70 % × 70 % = 49 %, under a 60 % floor.
    expect(billedDiscount(7000, 7000, 6000)).toBe(6000);
    // Above the floor the stacked discount stands (rounded up, in the platform's favour).
    expect(billedDiscount(9000, 9001, 6000)).toBe(8101);
    // No reseller: no floor; a level at 0 or 100 % changes nothing.
    expect(billedDiscount(5000, 8000, 0)).toBe(4000);
    expect(billedDiscount(5000, 0, 0)).toBe(5000);
    expect(billedDiscount(5000, 10_000, 0)).toBe(5000);
    expect(billedDiscount(0, undefined, 0)).toBe(0);
  });
});

describe('floorCost', () => {
  it('prices the same list price at the floor, rounded up', () => {
    expect(floorCost(10_200, 8000, 6000)).toBe(7650);
    // 101 × 6000 / 7000 = 86.57…
    expect(floorCost(101, 7000, 6000)).toBe(87);
    // Billed at the floor: the cost is the charge.
    expect(floorCost(5, 9000, 9000)).toBe(5);
    // No reseller, a floor of 0, nothing charged.
    expect(floorCost(500, 10_000, 0)).toBe(0);
    expect(floorCost(0, 8000, 6000)).toBe(0);
    // Exact past 2^53 in the product.
    expect(floorCost(2 ** 52, 10_000, 9999)).toBe(Number((2n ** 52n * 9999n + 9999n) / 10_000n));
  });
});
