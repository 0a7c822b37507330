// Model share (docs/ORIGINAL-API.md §1.4 `GET /dashboard/model/percent/:days`): each model's calls as a ring.
import { useMemo, useState } from 'react';
import { Card, Spin } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { TOP_DAYS, type ModelPercent } from '@fastgate/core/entities/dashboard';
import { usePageLocale } from '../../locale';
import { dashboardApi, dashboardKeys } from './api';
import { Chart, type ChartOption } from './Chart';
import { DaySwitch } from './DaySwitch';
import locale from './locale';

function shareOption(data: ModelPercent | undefined, calls: string, empty: string): ChartOption {
  const items = data?.items ?? [];
  return {
    tooltip: { trigger: 'item', formatter: `{b}<br/>${calls}: {c} ({d}%)` },
    legend: { type: 'plain', bottom: 0, left: 'center', itemWidth: 10, itemHeight: 10 },
    series: [
      {
        type: 'pie',
        radius: ['42%', '64%'],
        center: ['50%', '44%'],
        avoidLabelOverlap: true,
        itemStyle: { borderRadius: 4, borderColor: 'transparent', borderWidth: 2 },
        label: { show: items.length > 0, formatter: '{d}%' },
        data: items.length ? items : [{ name: empty, value: 0, itemStyle: { color: 'rgba(134, 144, 156, 0.2)' }, label: { show: false } }],
      },
    ],
  } as ChartOption;
}

export function ModelShare() {
  const t = usePageLocale(locale);
  const [days, setDays] = useState(7);
  const share = useQuery({ queryKey: dashboardKeys.modelPercent(days), queryFn: () => dashboardApi.modelPercent(days) });
  const option = useMemo(() => shareOption(share.data, t('workplace.top.calls'), t('workplace.empty')), [share.data, t]);
  return (
    <Card bordered={false} title={t('workplace.share.title')} extra={<DaySwitch compact days={TOP_DAYS} value={days} onChange={setDays} testId="share-days" />} data-testid="workplace-share">
      <Spin loading={share.isFetching} style={{ display: 'block' }}>
        <Chart option={option} height={280} label={(share.data?.items ?? []).map((i) => `${i.name}: ${i.value}`).join(', ') || t('workplace.empty')} testId="share-chart" />
      </Spin>
    </Card>
  );
}
