// Top 10 (docs/ORIGINAL-API.md §1.4 `GET /dashboard/data/top`): ranked by spend, by user / app / app key / model
// (named by the server, the id in small print),
// for today or the last 7 / 15 / 30 days. Only users rank their app keys and do not rank users; users
// start on apps, the others on users.
import { useState } from 'react';
import { Card, Radio, Space, Table, type TableColumnProps } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { TOP_DAYS, type TopItem, type TopType } from '@fastgate/core/entities/dashboard';
import { formatUsd } from '@fastgate/core/money';
import { useUserStore } from '../../stores/user';
import { usePageLocale } from '../../locale';
import { dashboardApi, dashboardKeys } from './api';
import { DaySwitch } from './DaySwitch';
import locale from './locale';
import { topTypesFor } from './roles';
import styles from './workplace.module.css';

type T = (key: keyof (typeof locale)['zh-CN'], vars?: Record<string, string | number>) => string;

/** What a row ranks, by name (the server's, in the caller's scope), with the id in small print. */
function NameCell({ row, type, t }: { row: TopItem & { rank: number }; type: TopType; t: T }) {
  const [main, small] =
    type === 'model'
      ? [row.model, undefined]
      : type === 'app_key'
        ? [row.app_key, row.name ? `${row.name} · ${t('workplace.top.id', { id: row.app_id ?? '-' })}` : undefined]
        : [row.name, t('workplace.top.id', { id: (type === 'user' ? row.user_id : row.app_id) ?? '-' })];
  return (
    <span className={styles.name} data-testid={`top-name-${row.rank}`}>
      {main || '-'}
      {small && <span className={styles.nameId}>{small}</span>}
    </span>
  );
}

function columns(t: T, type: TopType): TableColumnProps<TopItem & { rank: number }>[] {
  const num = (v: number | undefined) => <span className={styles.num}>{(v ?? 0).toLocaleString()}</span>;
  return [
    { title: t('workplace.top.rank'), dataIndex: 'rank', width: 64, render: (rank: number) => <span className={`${styles.rank} ${rank <= 3 ? styles.rankTop : ''}`}>{rank}</span> },
    // Wide enough for a usual name on one line; the table scrolls on a phone rather than squeezing it.
    { title: t(`workplace.top.name.${type}`), dataIndex: 'name', width: 200, render: (_: unknown, row) => <NameCell row={row} type={type} t={t} /> },
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
          columns={columns(t, type)}
          data={rows}
          pagination={false}
          scroll={{ x: true }}
          noDataElement={<div style={{ padding: 24, color: 'var(--color-text-3)' }}>{t('workplace.empty')}</div>}
          className={styles.topTable}
          data-testid="top-table"
        />
      </Space>
    </Card>
  );
}
