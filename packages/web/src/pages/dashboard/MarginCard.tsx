// A reseller's margin (issue 13, `GET /dashboard/margin/:days`): what its users paid at their discounts
// against what the same calls cost it at its floor, over a day window. Resellers only: its users never
// learn its cost price.
import { useState } from 'react';
import { Card, Skeleton, Typography } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { TREND_DAYS } from '@fastgate/core/entities/dashboard';
import { formatUsd } from '@fastgate/core/money';
import { usePageLocale } from '../../locale';
import { dashboardApi, dashboardKeys } from './api';
import { DaySwitch } from './DaySwitch';
import { Headline } from './Headline';
import locale from './locale';

export function MarginCard() {
  const t = usePageLocale(locale);
  const [days, setDays] = useState<number>(TREND_DAYS[0]);
  const margin = useQuery({ queryKey: dashboardKeys.margin(days), queryFn: () => dashboardApi.margin(days) });
  const m = margin.data;
  return (
    <Card bordered={false} title={t('workplace.margin.title')} extra={<DaySwitch days={TREND_DAYS} value={days} onChange={setDays} testId="margin-days" compact />} data-testid="workplace-margin">
      <Skeleton loading={margin.isLoading} text={{ rows: 3 }} animation>
        {m && (
          <>
            <Headline
              label={t('workplace.margin.value')}
              value={formatUsd(m.margin)}
              testId="margin-value"
              details={[
                { label: t('workplace.margin.spend'), value: <span data-testid="margin-spend">{formatUsd(m.spend)}</span> },
                { label: t('workplace.margin.cost'), value: <span data-testid="margin-cost">{formatUsd(m.floor_spend)}</span> },
                { label: t('workplace.margin.floor'), value: <span data-testid="margin-floor">{`${Math.round(m.floor * 10_000) / 100}%`}</span> },
              ]}
            />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('workplace.margin.extra')}
            </Typography.Text>
          </>
        )}
      </Skeleton>
    </Card>
  );
}
