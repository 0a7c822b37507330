// How a deal record's amount reads (docs/ORIGINAL-API.md §3.11): amounts are stored as magnitudes; deductions and
// expiries take quota away, so they show with a minus, recharges and gifts with a plus.
import { QuotaType, type DealRecord } from '@fastgate/core/entities/user';
import { formatUsd } from '@fastgate/core/money';

export const DEAL_TYPES = [QuotaType.Recharge, QuotaType.Deduct, QuotaType.Gift, QuotaType.Expire] as const;
export const DEAL_TYPE_COLOR: Record<number, string> = { [QuotaType.Recharge]: 'green', [QuotaType.Deduct]: 'orange', [QuotaType.Gift]: 'arcoblue', [QuotaType.Expire]: 'gray' };

export function isDebit(type: number): boolean {
  return type === QuotaType.Deduct || type === QuotaType.Expire;
}

/** "+$1.5" / "-$0.2". */
export function signedUsd(row: Pick<DealRecord, 'type' | 'quota'>): string {
  return `${isDebit(row.type) ? '-' : '+'}${formatUsd(row.quota)}`;
}
