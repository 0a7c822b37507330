// Group facts as tags, shared by the group management list, "my group" and the VIP levels:
// default, discount, limits, expiry and quota.
import { Space, Tag, Typography } from '@arco-design/web-react';
import type { RateLimits } from '@fastgate/core/entities/catalogue';
import { formatUsd } from '@fastgate/core/money';
import { usePageLocale } from '../../locale';
import { discountPercent, RATE_LIMIT_KEYS } from './display';
import locale from './locale';

export function DefaultGroupTag({ testId }: { testId?: string }) {
  const t = usePageLocale(locale);
  return (
    <Tag size="small" color="green" data-testid={testId}>
      {t('groupTags.default')}
    </Tag>
  );
}

export function DiscountTag({ fraction, testId }: { fraction: number; testId?: string }) {
  const percent = discountPercent(fraction);
  return (
    <Tag color={percent < 100 ? 'orangered' : 'gray'} data-testid={testId}>
      {percent}%
    </Tag>
  );
}

/** The limits that are set (0 = unlimited, docs/SPEC.md §5), as `RPM 60` tags. */
export function RateLimitTags({ limits }: { limits: RateLimits | undefined }) {
  const t = usePageLocale(locale);
  const set = RATE_LIMIT_KEYS.filter((k) => (limits?.[k] ?? 0) > 0);
  if (!set.length) return <Typography.Text type="secondary">{t('groupTags.rateLimits.none')}</Typography.Text>;
  return (
    <Space size={4} wrap>
      {set.map((k) => (
        <Tag key={k} size="small" color="cyan">
          {k.toUpperCase()} {limits![k]}
        </Tag>
      ))}
    </Space>
  );
}

/** "" = never (docs/ORIGINAL-API.md §2.10). The expired tag reads the server-zone time in the browser zone: a hint, not the rule. */
export function ExpiresAt({ value }: { value: string }) {
  const t = usePageLocale(locale);
  if (!value) return <Typography.Text type="secondary">{t('groupTags.never')}</Typography.Text>;
  const expired = new Date(value.replace(' ', 'T')).getTime() < Date.now();
  return (
    <Space size={4}>
      <span>{value}</span>
      {expired && (
        <Tag size="small" color="red">
          {t('groupTags.expired')}
        </Tag>
      )}
    </Space>
  );
}

export function QuotaUsed({ limited, quota, used }: { limited: boolean; quota: number; used: number }) {
  const t = usePageLocale(locale);
  return (
    <Space size={4} style={{ fontVariantNumeric: 'tabular-nums' }}>
      <span>{limited ? formatUsd(quota) : t('groupTags.unlimited')}</span>
      <Typography.Text type="secondary">/ {formatUsd(used)}</Typography.Text>
    </Space>
  );
}
