// A breaker at a glance (issue 13): healthy / open / probing / cooling as a coloured tag with the last
// minute's error rate; the tooltip tells the calls, the last error and until when it waits.
import { Space, Tag, Tooltip, Typography } from '@arco-design/web-react';
import type { BreakerInfo } from '@fastgate/core/entities/breaker';
import { usePageLocale } from '../../locale';
import locale from './locale';

const COLOR = { closed: 'green', open: 'red', half_open: 'orange', cooling: 'gold' } as const;

export function BreakerTag({ info, testId }: { info: BreakerInfo | undefined; testId?: string }) {
  const t = usePageLocale(locale);
  if (!info) return <Typography.Text type="secondary">-</Typography.Text>;
  const look = info.state === 'closed' && info.cooling_until ? 'cooling' : info.state;
  const lines = [
    t('health.calls', { calls: info.calls, failures: info.failures }),
    ...(info.last_error ? [t('health.lastError', { at: info.last_error.at, status: info.last_error.status || '-', message: info.last_error.message })] : []),
    ...(info.retry_at ? [t('health.retryAt', { at: info.retry_at })] : []),
    ...(info.cooling_until ? [t('health.coolingUntil', { at: info.cooling_until })] : []),
  ];
  return (
    <Tooltip content={lines.map((l) => <div key={l}>{l}</div>)}>
      <Space size={4} style={{ whiteSpace: 'nowrap' }} data-testid={testId} data-state={look}>
        <Tag size="small" color={COLOR[look]}>
          {t(`health.${look}`)}
        </Tag>
        {info.calls > 0 && <Typography.Text type={info.error_rate > 0 ? 'warning' : 'secondary'}>{t('health.rate', { rate: info.error_rate })}</Typography.Text>}
      </Space>
    </Tooltip>
  );
}
