// Top 10 (docs/ORIGINAL-API.md §1.4 `GET /dashboard/data/top`): ranked by spend, by user / app / app key / model,
// for today or the last 7 / 15 / 30 days. Only users rank their app keys and do not rank users; users
// start on apps, the others on users.
import { useMemo, useState } from 'react';
import { Card, Radio, Space, Table, type TableColumnProps } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { TOP_DAYS, type TopItem, type TopType } from '@fastgate/core/entities/dashboard';
import { APP_PREFIX, type AppOption } from '@fastgate/core/entities/app';
import { formatUsd } from '@fastgate/core/money';
import { useResourceList } from '../../hooks/resource';
import { useUserStore } from '../../stores/user';
import { usePageLocale } from '../../locale';
import { dashboardApi, dashboardKeys } from './api';
import { DaySwitch } from './DaySwitch';
import locale from './locale';
import { topTypesFor } from './roles';
import styles from './workplace.module.css';

type T = (key: keyof (typeof locale)['zh-CN'], vars?: Record<string, string | number>) => string;

/** `appNames`: app id → name, from the caller's app list (the ranking itself carries ids only). */
function nameOf(row: TopItem, type: TopType, appNames: Map<number, string>): string {
  switch (type) {
    case 'user':
      return String(row.user_id ?? '-');
    case 'app': {
      const name = row.app_id === undefined ? undefined : appNames.get(row.app_id);
      return name ? `${name} (${row.app_id})` : String(row.app_id ?? '-');
    }
    case 'app_key':
      return row.app_key ?? '-';
    case 'model':
      return row.model ?? '-';
  }
}

function columns(t: T, type: TopType, appNames: Map<number, string>): TableColumnProps<TopItem & { rank: number }>[] {
  const num = (v: number | undefined) => <span className={styles.num}>{(v ?? 0).toLocaleString()}</span>;
  return [
    { title: t('workplace.top.rank'), dataIndex: 'rank', width: 64, render: (rank: number) => <span className={`${styles.rank} ${rank <= 3 ? styles.rankTop : ''}`}>{rank}</span> },
    { title: t(`workplace.top.name.${type}`), dataIndex: 'name', render: (_: unknown, row) => <span className={styles.name} data-testid={`top-name-${row.rank}`}>{nameOf(row, type, appNames)}</span> },
    { title: t('workplace.top.calls'), dataIndex: 'call', align: 'right', render: num },
    { title: t('workplace.top.tokens'), dataIndex: 'tokens', align: 'right', render: num },
    ...(type === 'user' ? [{ title: t('workplace.top.models'), dataIndex: 'models', align: 'right' as const, render: num }] : []),
    ...(type === 'model' ? [{ title: t('workplace.top.users'), dataIndex: 'user', align: 'right' as const, render: num }] : []),
    { title: t('workplace.top.spend'), dataIndex: 'spend', align: 'right', render: (v: number, row) => <span className={styles.num} data-testid={`top-spend-${row.rank}`}>{formatUsd(v)}</span> },
  ];
}

export function TopRanking() {
  const t = usePageLocale(locale);
  const role = useUserStore((s) => s.role);
  const types = topTypesFor(role);
  const [picked, setType] = useState<TopType>(types[0]);
  // The role is known before this page renders; should it change, fall back to its first ranking.
  const type = types.includes(picked) ? picked : types[0];
  const [days, setDays] = useState<number>(TOP_DAYS[0]);
  const top = useQuery({ queryKey: dashboardKeys.top(days, type), queryFn: () => dashboardApi.top(days, type) });
  const apps = useResourceList<AppOption>(APP_PREFIX, { silent: true, enabled: type === 'app' });
  const appNames = useMemo(() => new Map((apps.data ?? []).map((a) => [a.app_id, a.name])), [apps.data]);
  const rows = (top.data ?? []).map((row, i) => ({ ...row, rank: i + 1 }));
  return (
    <Card bordered={false} title={t('workplace.top.title')} data-testid="workplace-top">
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        <div className={styles.toolbar}>
          <Radio.Group type="button" size="small" value={type} onChange={(v: TopType) => setType(v)} data-testid="top-type">
            {types.map((k) => (
              <Radio key={k} value={k} data-testid={`top-type-${k}`}>
                {t(`workplace.top.type.${k}`)}
              </Radio>
            ))}
          </Radio.Group>
          <DaySwitch days={TOP_DAYS} value={days} onChange={setDays} testId="top-days" />
        </div>
        <Table
          rowKey="rank"
          size="small"
          border={false}
          loading={top.isFetching}
          columns={columns(t, type, appNames)}
          data={rows}
          pagination={false}
          scroll={{ x: true }}
          noDataElement={<div style={{ padding: 24, color: 'var(--color-text-3)' }}>{t('workplace.empty')}</div>}
          data-testid="top-table"
        />
      </Space>
    </Card>
  );
}
