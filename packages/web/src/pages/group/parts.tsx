// Group pieces shared by the group management screens and "my group": discount, limits, expiry, quota.
import { Space, Tag, Typography } from '@arco-design/web-react';
import type { RateLimits } from '@fastgate/core/entities/catalogue';
import { MODEL_PREFIX, type ModelListItem } from '@fastgate/core/entities/model';
import { formatUsd } from '@fastgate/core/money';
import { ResourceSelect, type ResourceSelectProps } from '../../components/ResourceSelect';
import { useGlobalLocale, usePageLocale } from '../../locale';
import locale from './locale';
import { discountPercent, RATE_LIMIT_KEYS } from './values';

export function DiscountTag({ fraction, testId }: { fraction: number; testId?: string }) {
  const percent = discountPercent(fraction);
  return (
    <Tag color={percent < 100 ? 'orangered' : 'gray'} data-testid={testId}>
      {percent}%
    </Tag>
  );
}

/** The limits that are set (0 = unlimited, SPEC §5), as `RPM 60` tags. */
export function RateLimitTags({ limits }: { limits: RateLimits | undefined }) {
  const t = usePageLocale(locale);
  const set = RATE_LIMIT_KEYS.filter((k) => (limits?.[k] ?? 0) > 0);
  if (!set.length) return <Typography.Text type="secondary">{t('group.rateLimits.none')}</Typography.Text>;
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

/** "" = never (reference §2.10). The expired tag reads the server-zone time in the browser zone: a hint, not the rule. */
export function ExpiresAt({ value }: { value: string }) {
  const t = usePageLocale(locale);
  if (!value) return <Typography.Text type="secondary">{t('group.never')}</Typography.Text>;
  const expired = new Date(value.replace(' ', 'T')).getTime() < Date.now();
  return (
    <Space size={4}>
      <span>{value}</span>
      {expired && (
        <Tag size="small" color="red">
          {t('group.expired')}
        </Tag>
      )}
    </Space>
  );
}

export function QuotaUsed({ limited, quota, used }: { limited: boolean; quota: number; used: number }) {
  const t = usePageLocale(locale);
  return (
    <Space size={4} style={{ fontVariantNumeric: 'tabular-nums' }}>
      <span>{limited ? formatUsd(quota) : t('group.unlimited')}</span>
      <Typography.Text type="secondary">/ {formatUsd(used)}</Typography.Text>
    </Space>
  );
}

/** One model (forwarding targets): `ModelSelect` is multiple-only. */
export function OneModelSelect(props: Omit<ResourceSelectProps<ModelListItem>, 'prefix' | 'labelOf' | 'mode'>) {
  const { g } = useGlobalLocale();
  return <ResourceSelect<ModelListItem> placeholder={g('modelSelect.placeholder')} {...props} prefix={MODEL_PREFIX} labelOf={(m) => m.name} silent />;
}
