// Table cells of a deal record: the type as a coloured tag, the amount signed and coloured by direction.
import { Tag } from '@arco-design/web-react';
import type { DealRecord } from '@fastgate/core/entities/user';
import { DEAL_TYPE_COLOR, isDebit, signedUsd } from './deal';

export function DealAmount({ row }: { row: Pick<DealRecord, 'id' | 'type' | 'quota'> }) {
  return (
    <span style={{ color: isDebit(row.type) ? 'rgb(var(--orange-6))' : 'rgb(var(--green-6))', fontVariantNumeric: 'tabular-nums' }} data-testid={`deal-amount-${row.id}`}>
      {signedUsd(row)}
    </span>
  );
}

export function DealTypeTag({ type, label }: { type: number; label: string }) {
  return <Tag color={DEAL_TYPE_COLOR[type]}>{label}</Tag>;
}
