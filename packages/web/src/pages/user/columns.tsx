// Columns and search fields of the user and reseller lists (docs/ORIGINAL-API.md §3.1). Money shows in dollars.
import { Tag, Typography, type TableColumnProps } from '@arco-design/web-react';
import type { ManagedUser, Reseller } from '@fastgate/core/entities/user';
import { usd } from '../../components/Usd';
import type { FilterField } from '../../components/SearchForm';
import type locale from './locale';

export type Kind = 'user' | 'reseller';
type Key = keyof (typeof locale)['zh-CN'];
export type T = (key: Key, vars?: Record<string, string | number>) => string;


export function accountColumns(t: T, kind: Kind, showReseller: boolean): TableColumnProps<ManagedUser>[] {
  return [
    { title: t('user.userId'), dataIndex: 'user_id', width: 90 },
    { title: t('user.account'), dataIndex: 'account', width: 160, render: (v: string) => <Typography.Text bold>{v}</Typography.Text> },
    ...(kind === 'reseller' ? [{ title: t('user.floor'), dataIndex: 'floor', width: 100, render: (v: number) => <span data-testid="reseller-floor">{`${Math.round(v * 10_000) / 100}%`}</span> }] : []),
    { title: t('user.quota'), dataIndex: 'quota', width: 120, render: (v: number) => usd(v) },
    { title: t('user.usedQuota'), dataIndex: 'used_quota', width: 110, render: (v: number) => usd(v) },
    ...(kind === 'reseller'
      ? [
          { title: t('user.allocated'), dataIndex: 'allocated_quota', width: 120, render: (v: number) => usd(v) },
          { title: t('user.toBeAllocated'), dataIndex: 'to_be_allocated', width: 120, render: (v: number) => usd(v) },
        ]
      : []),
    { title: t('user.name'), dataIndex: 'name', width: 120 },
    { title: t('user.email'), dataIndex: 'email', width: 180, ellipsis: true, render: (v: string) => v || '-' },
    { title: t('user.quotaExpiresAt'), dataIndex: 'quota_expires_at', width: 170, render: (v: string) => v || <Tag size="small">{t('user.never')}</Tag> },
    ...(showReseller ? [{ title: t('user.resellerId'), dataIndex: 'rid', width: 100, render: (v: number) => v || '-' }] : []),
    { title: t('user.remark'), dataIndex: 'remark', width: 140, ellipsis: true, render: (v: string) => v || '-' },
    { title: t('user.createdAt'), dataIndex: 'created_at', width: 170 },
  ] as TableColumnProps<ManagedUser | Reseller>[];
}

export function accountFilters(t: T, showReseller: boolean): FilterField[] {
  return [
    { field: 'user_id', kind: 'number', label: t('user.userId') },
    ...(showReseller ? [{ field: 'rid', kind: 'number' as const, label: t('user.resellerId') }] : []),
    { field: 'account', kind: 'text', label: t('user.account') },
    { field: 'name', kind: 'text', label: t('user.name') },
    { field: 'email', kind: 'text', label: t('user.email') },
    { field: 'quota', kind: 'number', label: t('user.quotaBelow') },
    { field: 'status', kind: 'status', label: t('user.status') },
    { field: 'remark', kind: 'text', label: t('user.remark') },
    { field: 'created_at', kind: 'dateRange', label: t('user.createdAt') },
  ];
}
