// The call trend (docs/ORIGINAL-API.md §1.4 `GET /dashboard/call/data/:days`, default 15 days): spend on the left
// axis in dollars, calls, tokens and abnormal calls on the right, one point per day (gaps come zero-filled),
// with the window's totals above the chart.
import { useMemo, useState } from 'react';
import { Card, Spin, Statistic } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { TREND_DAYS, type TrendPoint } from '@fastgate/core/entities/dashboard';
import { quotaToUsd } from '@fastgate/core/money';
import { usePageLocale } from '../../locale';
import { dashboardApi, dashboardKeys } from './api';
import { Chart, PALETTE, type ChartOption } from './Chart';
import { DaySwitch } from './DaySwitch';
import locale from './locale';
import styles from './workplace.module.css';

const DEFAULT_TREND_DAYS = 15;

/** Dollars to at most 6 decimals (one quota unit is $0.000002). */
const usd = (quota: number) => Number(quotaToUsd(quota).toFixed(6));

type T = (key: keyof (typeof locale)['zh-CN'], vars?: Record<string, string | number>) => string;

function trendOption(items: TrendPoint[], t: T): ChartOption {
  const spend = t('workplace.trend.spend');
  const calls = t('workplace.trend.calls');
  const tokens = t('workplace.trend.tokens');
  const abnormal = t('workplace.trend.abnormal');
  const line = (name: string, data: number[], color: string, yAxisIndex: number, area = false) => ({
    name,
    type: 'line' as const,
    smooth: true,
    showSymbol: false,
    yAxisIndex,
    data,
    lineStyle: { width: area ? 3 : 2 },
    itemStyle: { color },
    ...(area
      ? { areaStyle: { color: { type: 'linear' as const, x: 0, y: 0, x2: 0, y2: 1, colorStops: [{ offset: 0, color: 'rgba(22, 93, 255, 0.25)' }, { offset: 1, color: 'rgba(22, 93, 255, 0)' }] } } }
      : {}),
  });
  return {
    tooltip: {
      trigger: 'axis',
      valueFormatter: (value) => (typeof value === 'number' ? value.toLocaleString() : String(value)),
    },
    legend: { top: 0, data: [spend, calls, tokens, abnormal] },
    grid: { left: 8, right: 8, top: 40, bottom: 8, containLabel: true },
    xAxis: { type: 'category', boundaryGap: false, data: items.map((p) => p.date) },
    yAxis: [
      { type: 'value', name: '$', minInterval: 0.000001, splitLine: { lineStyle: { type: 'dashed' } } },
      { type: 'value', minInterval: 1, splitLine: { show: false } },
    ],
    series: [
      { ...line(spend, items.map((p) => usd(p.spend)), PALETTE[0], 0, true), tooltip: { valueFormatter: (v) => `$${Number(v).toLocaleString(undefined, { maximumFractionDigits: 6 })}` } },
      line(calls, items.map((p) => p.call), PALETTE[1], 1),
      line(tokens, items.map((p) => p.tokens), PALETTE[2], 1),
      line(abnormal, items.map((p) => p.abnormal), PALETTE[3], 1),
    ],
  } as ChartOption;
}

export function CallTrend() {
  const t = usePageLocale(locale);
  const [days, setDays] = useState(DEFAULT_TREND_DAYS);
  const trend = useQuery({ queryKey: dashboardKeys.trend(days), queryFn: () => dashboardApi.trend(days) });
  const items = useMemo(() => trend.data ?? [], [trend.data]);
  const option = useMemo(() => trendOption(items, t), [items, t]);
  const sum = (pick: (p: TrendPoint) => number) => items.reduce((n, p) => n + pick(p), 0);
  return (
    <Card
      bordered={false}
      title={t('workplace.trend.title')}
      extra={<DaySwitch days={TREND_DAYS} value={days} onChange={setDays} testId="trend-days" />}
      data-testid="workplace-trend"
    >
      <div className={styles.totals}>
        <Statistic title={t('workplace.trend.spend')} value={usd(sum((p) => p.spend))} prefix="$" groupSeparator data-testid="trend-total-spend" />
        <Statistic title={t('workplace.trend.calls')} value={sum((p) => p.call)} groupSeparator data-testid="trend-total-calls" />
        <Statistic title={t('workplace.trend.tokens')} value={sum((p) => p.tokens)} groupSeparator data-testid="trend-total-tokens" />
        <Statistic title={t('workplace.trend.abnormal')} value={sum((p) => p.abnormal)} groupSeparator data-testid="trend-total-abnormal" />
      </div>
      <Spin loading={trend.isFetching} style={{ display: 'block' }}>
        <Chart option={option} height={300} label={t('workplace.trend.title')} testId="trend-chart" />
      </Spin>
    </Card>
  );
}
