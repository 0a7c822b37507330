// Quota units shown as dollars (500000 = $1), digits aligned in tables.
import { formatUsd } from '@fastgate/core/money';

export const usd = (quota: number | undefined) => <span style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>{formatUsd(quota ?? 0)}</span>;
