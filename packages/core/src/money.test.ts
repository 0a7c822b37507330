import { describe, expect, it } from 'vitest';
import { formatUsd, quotaToUsd, usdToQuota } from './money';

describe('money', () => {
  it('converts between quota units and dollars', () => {
    expect(quotaToUsd(500000)).toBe(1);
    expect(usdToQuota(0.000002)).toBe(1);
    expect(usdToQuota(12.5)).toBe(6_250_000);
  });
  it('formats a preview with at most six decimals', () => {
    expect(formatUsd(500000)).toBe('$1');
    expect(formatUsd(1)).toBe('$0.000002');
    expect(formatUsd(1234567)).toBe('$2.469134');
  });
});
