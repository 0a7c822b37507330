// Live rates (docs/ORIGINAL-API.md §1.4): requests and tokens per second (polled every second) and per minute
// (every 3 s), over the caller's whole scope. Polling stops while the tab is hidden.
import { Card, Statistic, Tooltip } from '@arco-design/web-react';
import { useLiveRates } from '../../hooks/live-rates';
import { usePageLocale } from '../../locale';
import locale from './locale';
import styles from './workplace.module.css';

export function LiveRates() {
  const t = usePageLocale(locale);
  const { perSecond, perMinute } = useLiveRates();
  const figure = (key: 'rps' | 'tps' | 'rpm' | 'tpm', value: number | undefined) => (
    <Tooltip content={t(`workplace.live.${key}.tip`)}>
      <div>
        <Statistic title={key.toUpperCase()} value={value ?? 0} groupSeparator data-testid={`live-${key}`} />
      </div>
    </Tooltip>
  );
  return (
    <Card
      bordered={false}
      title={
        <span>
          <span className={styles.live} />
          {t('workplace.live.title')}
        </span>
      }
      data-testid="workplace-live"
    >
      <div className={styles.rates}>
        {figure('rps', perSecond?.rps)}
        {figure('tps', perSecond?.tps)}
        {figure('rpm', perMinute?.rpm)}
        {figure('tpm', perMinute?.tpm)}
      </div>
    </Card>
  );
}
