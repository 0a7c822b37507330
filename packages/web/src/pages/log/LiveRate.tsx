// The chat log's live RPM/TPM badge (reference §1.4: the original polls `/dashboard/per/minute` every 3 s
// with the page's filter). A failed poll keeps the last numbers instead of toasting every 3 s.
import { Badge, Space, Tooltip, Typography } from '@arco-design/web-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PER_MINUTE_MS } from '../../hooks/live-rates';
import { usePageLocale } from '../../locale';
import { perMinute, type LogFilterBody } from './api';
import locale from './locale';

export function LiveRate({ filter }: { filter: LogFilterBody }) {
  const t = usePageLocale(locale);
  const rate = useQuery({
    // The dashboard hook's key and cadence: both screens share what they fetch. Only the per-minute
    // rates here (useLiveRates also polls per second, every second, which this badge does not show).
    queryKey: ['live-rates', 'minute', filter],
    queryFn: () => perMinute(filter),
    refetchInterval: PER_MINUTE_MS,
    retry: false,
    placeholderData: keepPreviousData,
  });
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
