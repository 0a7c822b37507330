// Deal records (docs/SPEC.md §2 finance, docs/ORIGINAL-API.md §1.5, §3.11): recharges, deductions, gifts and expiries in
// the caller's scope, newest first. Amounts in dollars, signed by type.
import { useMemo, type ReactElement } from 'react';
import { DealStatus, type DealRecord } from '@fastgate/core/entities/user';
import { ADMIN_RESELLER } from '@fastgate/core/routes';
import { usePermission } from '../../components/Permission';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable';
import { timeColumn } from '../../components/time-column';
import type { FilterField } from '../../components/SearchForm';
import { useResourcePage } from '../../hooks/resource';
import { usePageLocale } from '../../locale';
import { DEAL_RECORD_PREFIX } from './api';
import { DEAL_TYPES } from '../../components/deal/deal';
import { DealAmount, DealTypeTag } from '../../components/deal/DealCells';
import locale from './locale';
import { AccountSelect } from '../../components/UserSelect';

const DEAL_STATUSES = [DealStatus.Success, DealStatus.Refund, DealStatus.Failed] as const;

export default function DealRecordList() {
  const t = usePageLocale(locale);
  const showOwner = usePermission(ADMIN_RESELLER);
  const typeLabel = (type: number) => t(`deal.type.${type}` as 'deal.type.1');
  const statusLabel = (status: number) => t(`deal.status.${status}` as 'deal.status.1');

  const filters = useMemo<FilterField[]>(
    () => [
      ...(showOwner ? [{ field: 'user_id', kind: 'custom' as const, valueType: 'number' as const, label: t('finance.deal.userId'), render: () => <AccountSelect data-testid="filter-user_id" /> }] : []),
      { field: 'type', kind: 'select', valueType: 'number', label: t('finance.deal.type'), options: DEAL_TYPES.map((v) => ({ value: v, label: t(`deal.type.${v}`) })) },
      { field: 'status', kind: 'select', valueType: 'number', label: t('finance.deal.status'), options: DEAL_STATUSES.map((v) => ({ value: v, label: t(`deal.status.${v}`) })) },
      { field: 'remark', kind: 'text', label: t('finance.deal.remark') },
      { field: 'created_at', kind: 'dateRange', label: t('finance.deal.createdAt') },
    ],
    [t, showOwner],
  );
  const page = useResourcePage<DealRecord>(DEAL_RECORD_PREFIX, filters);

  const columns: ResourceColumn<DealRecord>[] = [
    timeColumn(t('finance.deal.createdAt'), 'created_at'),
    ...(showOwner ? [{ title: t('finance.deal.userId'), dataIndex: 'user_id', width: 100 }] : []),
    { title: t('finance.deal.type'), dataIndex: 'type', width: 90, render: (v: number): ReactElement => <DealTypeTag type={v} label={typeLabel(v)} /> },
    { title: t('finance.deal.quota'), dataIndex: 'quota', width: 140, align: 'right', render: (_: unknown, row) => <DealAmount row={row} /> },
    { title: t('finance.deal.status'), dataIndex: 'status', width: 90, render: (v: number) => statusLabel(v) },
    { title: t('finance.deal.remark'), dataIndex: 'remark', width: 200, ellipsis: true, render: (v: string) => v || '-' },
    ...(showOwner ? [{ title: t('finance.deal.creator'), dataIndex: 'creator', width: 140, ellipsis: true, render: (v: string) => v || '-' }] : []),
  ];

  return <ResourceTable page={page} columns={columns} title={t('finance.deal.title')} statusColumn={false} deletable={false} batch={false} />;
}
