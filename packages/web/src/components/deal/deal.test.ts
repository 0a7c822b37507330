import { describe, expect, it } from 'vitest';
import { QuotaType } from '@fastgate/core/entities/user';
import { DEAL_TYPES, isDebit, signedUsd } from './deal';

describe('deal record amounts', () => {
  it('signs recharges and gifts with a plus, deductions and expiries with a minus, in dollars', () => {
    expect(signedUsd({ type: QuotaType.Recharge, quota: 1_000_000 })).toBe('+$2');
    expect(signedUsd({ type: QuotaType.Gift, quota: 250_000 })).toBe('+$0.5');
    expect(signedUsd({ type: QuotaType.Deduct, quota: 500_000 })).toBe('-$1');
    expect(signedUsd({ type: QuotaType.Expire, quota: 1 })).toBe('-$0.000002');
  });

  it('knows every deal type and which of them take quota away', () => {
    expect(DEAL_TYPES.filter(isDebit)).toEqual([QuotaType.Deduct, QuotaType.Expire]);
  });
});
