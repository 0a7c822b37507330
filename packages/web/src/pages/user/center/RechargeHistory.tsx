// User center "recharge history": own balance, expiry, VIP level and the deal records (docs/ORIGINAL-API.md §1.4,
// docs/ORIGINAL-API.md §1.5). Reads `/dashboard/expense` and `/finance/deal/record/page` (the server scopes both to the caller).
import { useState } from 'react';
import { Descriptions, Space, Table, Tag } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { DEAL_RECORD_PAGE, EXPENSE_PATH, type DealRecord, type Expense } from '@fastgate/core/entities/user';
import { formatUsd } from '@fastgate/core/money';
import { get, post } from '../../../api/http';
import { API } from '../../../api/paths';
import { usePageLocale } from '../../../locale';
import { useUserStore } from '../../../stores/user';
import { signedUsd } from '../../../components/deal/deal';
import { DealTypeTag } from '../../../components/deal/DealCells';
import locale from '../locale';
import { detailColumns } from '../../../lib/layout';

export function RechargeHistory() {
  const t = usePageLocale(locale);
  const info = useUserStore((s) => s.info);
  const [current, setCurrent] = useState(1);
  const expense = useQuery({ queryKey: ['center', 'expense'], queryFn: () => get<Expense>(`${API}${EXPENSE_PATH}`) });
  const deals = useQuery({
    queryKey: ['center', 'deals', current],
    queryFn: () => post<{ items: DealRecord[]; paging: { total?: number } }>(`${API}${DEAL_RECORD_PAGE}`, { current, pageSize: 10 }),
  });
  const e = expense.data;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="center-recharge">
      <Descriptions
        column={detailColumns(3)}
        border
        data={[
          { label: t('user.history.balance'), value: <b data-testid="center-quota">{e ? formatUsd(e.quota) : '-'}</b> },
          { label: t('user.quotaExpiresAt'), value: <span data-testid="center-expires">{e ? e.quota_expires_at || t('user.never') : '-'}</span> },
          { label: t('user.history.vip'), value: info?.vip_level_name ? <Tag color={info.vip_level_color || 'gold'}>{info.vip_level_name}</Tag> : t('user.history.none') },
        ]}
      />
      <Table<DealRecord>
        rowKey="id"
        loading={deals.isFetching}
        data={deals.data?.items ?? []}
        pagination={{ current, pageSize: 10, total: deals.data?.paging.total ?? 0, onChange: setCurrent }}
        columns={[
          { title: t('user.history.time'), dataIndex: 'created_at', width: 180 },
          { title: t('user.history.type'), dataIndex: 'type', width: 100, render: (v: number) => <DealTypeTag type={v} label={t(`deal.type.${v}` as 'deal.type.1')} /> },
          { title: t('user.history.amount'), dataIndex: 'quota', width: 140, render: (_: number, r) => signedUsd(r) },
          { title: t('user.status'), dataIndex: 'status', width: 100, render: (v: number) => t(`deal.status.${v}` as 'deal.status.1') },
          { title: t('user.remark'), dataIndex: 'remark', render: (v: string) => v || '-' },
        ]}
      />
    </Space>
  );
}
