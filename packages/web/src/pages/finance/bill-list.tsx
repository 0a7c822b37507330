// Bills (docs/SPEC.md §2 finance, docs/ORIGINAL-API.md §1.5): one row per user and day, built by the statistics job.
// Filters: user id (admins and resellers) and the bill date range. Export needs that range, or picked
// rows (ids win over the range), and saves `账单明细.xlsx`.
import { useMemo, useState } from 'react';
import { Button, Message, Tooltip } from '@arco-design/web-react';
import { IconDownload } from '@arco-design/web-react/icon';
import type { Bill } from '@fastgate/core/entities/finance';
import { formatUsd } from '@fastgate/core/money';
import { ADMIN_RESELLER } from '@fastgate/core/routes';
import { usePermission } from '../../components/Permission';
import { ResourceTable, type BatchAction, type ResourceColumn } from '../../components/ResourceTable';
import type { FilterField } from '../../components/SearchForm';
import { useResourcePage } from '../../hooks/resource';
import { usePageLocale } from '../../locale';
import { saveBlob } from '../../api/download';
import { BILL_EXPORT_FILE, BILL_PREFIX, financeApi, type BillExportBody } from './api';
import locale from './locale';
import { AccountSelect } from '../../components/UserSelect';

type T = (key: keyof (typeof locale)['zh-CN'], vars?: Record<string, string | number>) => string;

const num = (v: number) => <span style={{ fontVariantNumeric: 'tabular-nums' }}>{(v ?? 0).toLocaleString()}</span>;

export function billColumns(t: T, showOwner: boolean): ResourceColumn<Bill>[] {
  return [
    { title: t('finance.bill.statDate'), dataIndex: 'stat_date', width: 120 },
    ...(showOwner ? [{ title: t('finance.bill.userId'), dataIndex: 'user_id', width: 100 }] : []),
    { title: t('finance.bill.calls'), dataIndex: 'total', width: 100, align: 'right', render: num },
    { title: t('finance.bill.models'), dataIndex: 'models', width: 90, defaultHidden: true, align: 'right', render: num },
    // On the wire `tokens` is the charge in quota units, as the original console reads it; the token count is `token_count`.
    { title: t('finance.bill.tokens'), dataIndex: 'token_count', width: 120, align: 'right', render: num },
    { title: t('finance.bill.spend'), dataIndex: 'tokens', width: 130, align: 'right', render: (v: number, row) => <span style={{ fontVariantNumeric: 'tabular-nums' }} data-testid={`bill-spend-${row.id}`}>{formatUsd(v)}</span> },
    // A reseller's user's day: what it cost the reseller at its floor, and the margin (admins and that reseller only).
    ...(showOwner
      ? [
          { title: t('finance.bill.floorSpend'), dataIndex: 'floor_spend', width: 120, defaultHidden: true, align: 'right' as const, render: (v: number | undefined) => (v === undefined ? '-' : formatUsd(v)) },
          {
            title: t('finance.bill.margin'),
            dataIndex: 'margin',
            width: 120,
            align: 'right' as const,
            render: (v: number | undefined, row: Bill) => (
              <span style={{ fontVariantNumeric: 'tabular-nums' }} data-testid={`bill-margin-${row.id}`}>
                {v === undefined ? '-' : formatUsd(v)}
              </span>
            ),
          },
        ]
      : []),
    { title: t('finance.bill.abnormal'), dataIndex: 'abnormal', width: 90, align: 'right', render: num },
  ];
}

export function billFilters(t: T, showOwner: boolean): FilterField[] {
  return [
    ...(showOwner ? [{ field: 'user_id', kind: 'custom' as const, valueType: 'number' as const, label: t('finance.bill.userId'), render: () => <AccountSelect data-testid="filter-user_id" /> }] : []),
    { field: 'stat_date', kind: 'dateRange', label: t('finance.bill.statDate') },
  ];
}

export default function BillList() {
  const t = usePageLocale(locale);
  const showOwner = usePermission(ADMIN_RESELLER);
  const filters = useMemo(() => billFilters(t, showOwner), [t, showOwner]);
  const page = useResourcePage<Bill>(BILL_PREFIX, filters);
  const columns = useMemo(() => billColumns(t, showOwner), [t, showOwner]);
  const [exporting, setExporting] = useState(false);

  const range = Array.isArray(page.values.stat_date) && page.values.stat_date.length === 2 ? (page.values.stat_date as string[]) : undefined;
  const userId = typeof page.values.user_id === 'number' ? page.values.user_id : undefined;

  const download = async (body: BillExportBody) => {
    setExporting(true);
    try {
      await saveBlob(await financeApi.exportBills(body), BILL_EXPORT_FILE);
      Message.success(t('finance.bill.exported'));
    } catch {
      // Shown by the HTTP client or saveBlob.
    } finally {
      setExporting(false);
    }
  };

  const batchActions: BatchAction[] = [{ key: 'export', label: t('finance.bill.exportSelected'), run: (ids) => download({ ids }) }];
  const exportButton = (
    <Button icon={<IconDownload />} loading={exporting} disabled={!range} onClick={() => void download({ stat_date: range, user_id: userId })} data-testid="bill-export">
      {t('finance.bill.export')}
    </Button>
  );

  return (
    <ResourceTable
      page={page}
      columns={columns}
      title={t('finance.bill.title')}
      routes={{ detail: 'finance.billDetail' }}
      statusColumn={false}
      deletable={false}
      batch={false}
      batchActions={batchActions}
      toolbar={
        range ? (
          exportButton
        ) : (
          // A disabled button gets no pointer events; the span carries the hover for the tooltip.
          <Tooltip content={t('finance.bill.export.needRange')}>
            <span style={{ display: 'inline-block' }} data-testid="bill-export-hint">
              {exportButton}
            </span>
          </Tooltip>
        )
      }
    />
  );
}
