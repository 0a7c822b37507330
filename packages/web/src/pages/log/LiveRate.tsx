// The chat log's live RPM/TPM badge (docs/ORIGINAL-API.md §1.4: the original polls `/dashboard/per/minute` every 3 s
// with the page's filter). A failed poll keeps the last numbers instead of toasting every 3 s.
import { Badge, Space, Tooltip, Typography } from '@arco-design/web-react';
import { usePerMinute } from '../../hooks/live-rates';
import { usePageLocale } from '../../locale';
import type { LogFilterBody } from './api';
import locale from './locale';

export function LiveRate({ filter }: { filter: LogFilterBody }) {
  const t = usePageLocale(locale);
  const rate = usePerMinute(filter);
  const value = (n: number | undefined) => (
    <Typography.Text bold style={{ fontVariantNumeric: 'tabular-nums' }}>
      {n ?? '-'}
    </Typography.Text>
  );
  return (
    <Tooltip content={t('log.liveRate')}>
      <Space size={6} style={{ padding: '4px 10px', borderRadius: 4, background: 'var(--color-fill-2)' }} data-testid="log-live-rate">
        <Badge status={rate.isError ? 'default' : 'processing'} />
        <span>RPM</span>
        <span data-testid="log-live-rpm">{value(rate.data?.rpm)}</span>
        <span>TPM</span>
        <span data-testid="log-live-tpm">{value(rate.data?.tpm)}</span>
      </Space>
    </Tooltip>
  );
}
