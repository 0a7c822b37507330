// Bill detail (`/finance/bill_detail?id=`, docs/ORIGINAL-API.md §1.5): the day's figures for one user and the
// same figures per model.
import { Descriptions, Table, Typography } from '@arco-design/web-react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import type { BillDetail, ModelStat } from '@fastgate/core/entities/finance';
import { ADMIN_RESELLER } from '@fastgate/core/routes';
import { usePermission } from '../../components/Permission';
import { usd } from '../../components/Usd';
import { recordProblem } from '../../components/record-state';
import { DetailCard } from '../../components/DetailCard';
import { backTo, routePath } from '../../lib/navigation';
import { useResourceDetail } from '../../hooks/resource';
import { usePageLocale } from '../../locale';
import { BILL_PREFIX } from './api';
import locale from './locale';
import { detailColumns } from '../../lib/layout';

const num = (v: number) => <span style={{ fontVariantNumeric: 'tabular-nums' }}>{(v ?? 0).toLocaleString()}</span>;

export default function BillDetailPage() {
  const t = usePageLocale(locale);
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const showOwner = usePermission(ADMIN_RESELLER);
  const id = search.get('id');
  const detail = useResourceDetail<BillDetail>(BILL_PREFIX, id);
  const bill = detail.data;
  const problem = recordProblem(id, detail);
  const back = () => navigate(backTo(location.state, routePath('finance.billList')));

  return (
    <DetailCard subject={bill?.stat_date} problem={problem} loading={detail.isFetching} onBack={back} testId="bill-detail">
      {bill && (
        <>
          <Descriptions
            title={t('finance.detail.summary')}
            column={{ ...detailColumns(4), md: 2 }}
            border
            style={{ marginBottom: 24 }}
            data={[
              { label: t('finance.bill.statDate'), value: <span data-testid="bill-detail-date">{bill.stat_date}</span> },
              ...(showOwner ? [{ label: t('finance.bill.userId'), value: bill.user_id }] : []),
              { label: t('finance.bill.calls'), value: <span data-testid="bill-detail-calls">{num(bill.total)}</span> },
              { label: t('finance.bill.models'), value: num(bill.models) },
              { label: t('finance.bill.tokens'), value: <span data-testid="bill-detail-tokens">{num(bill.token_count)}</span> },
              { label: t('finance.bill.spend'), value: <span data-testid="bill-detail-spend">{usd(bill.tokens)}</span> },
              { label: t('finance.bill.abnormal'), value: num(bill.abnormal) },
              { label: t('finance.bill.abnormalSpend'), value: usd(bill.abnormal_tokens) },
              { label: t('finance.bill.updatedAt'), value: bill.updated_at || '-' },
            ]}
          />
          <Typography.Title heading={6}>{t('finance.detail.models')}</Typography.Title>
          <Table<ModelStat>
            rowKey="model"
            border={false}
            pagination={false}
            data={bill.model_stats ?? []}
            scroll={{ x: true }}
            columns={[
              { title: t('finance.detail.model'), dataIndex: 'model', render: (m: string) => <span data-testid={`bill-model-${m}`}>{m}</span> },
              { title: t('finance.bill.calls'), dataIndex: 'total', align: 'right', render: num },
              { title: t('finance.bill.tokens'), dataIndex: 'token_count', align: 'right', render: num },
              { title: t('finance.bill.spend'), dataIndex: 'tokens', align: 'right', render: usd },
              { title: t('finance.bill.abnormal'), dataIndex: 'abnormal', align: 'right', render: num },
              { title: t('finance.bill.abnormalSpend'), dataIndex: 'abnormal_tokens', align: 'right', render: usd },
            ]}
            data-testid="bill-model-table"
          />
        </>
      )}
    </DetailCard>
  );
}
