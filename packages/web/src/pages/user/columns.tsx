// Columns and search fields of the user and reseller lists (docs/ORIGINAL-API.md §3.1). Money shows in dollars.
import { Tag, Typography } from '@arco-design/web-react';
import type { ManagedUser, Reseller } from '@fastgate/core/entities/user';
import { usd } from '../../components/Usd';
import type { ResourceColumn } from '../../components/ResourceTable';
import { timeColumn } from '../../components/time-column';
import type { FilterField } from '../../components/SearchForm';
import type locale from './locale';
import { ResellerSelect, UserSelect } from '../../components/UserSelect';

export type Kind = 'user' | 'reseller';
type Key = keyof (typeof locale)['zh-CN'];
export type T = (key: Key, vars?: Record<string, string | number>) => string;


export function accountColumns(t: T, kind: Kind, showReseller: boolean): ResourceColumn<ManagedUser>[] {
  return [
    { title: t('user.userId'), dataIndex: 'user_id', width: 90 },
    { title: t('user.account'), dataIndex: 'account', width: 160, render: (v: string) => <Typography.Text bold>{v}</Typography.Text> },
    ...(kind === 'reseller' ? [{ title: t('user.floor'), dataIndex: 'floor', width: 100, defaultHidden: true, render: (v: number) => <span data-testid="reseller-floor">{`${Math.round(v * 10_000) / 100}%`}</span> }] : []),
    { title: t('user.quota'), dataIndex: 'quota', width: 110, render: (v: number) => usd(v) },
    { title: t('user.usedQuota'), dataIndex: 'used_quota', width: 110, defaultHidden: kind === 'reseller', render: (v: number) => usd(v) },
    ...(kind === 'reseller'
      ? [
          { title: t('user.allocated'), dataIndex: 'allocated_quota', width: 120, render: (v: number) => usd(v) },
          { title: t('user.toBeAllocated'), dataIndex: 'to_be_allocated', width: 120, defaultHidden: true, render: (v: number) => usd(v) },
        ]
      : []),
    { title: t('user.name'), dataIndex: 'name', width: 120, defaultHidden: true },
    { title: t('user.email'), dataIndex: 'email', width: 180, defaultHidden: true, ellipsis: true, render: (v: string) => v || '-' },
    { title: t('user.quotaExpiresAt'), dataIndex: 'quota_expires_at', width: 170, defaultHidden: true, render: (v: string) => v || <Tag size="small">{t('user.never')}</Tag> },
    ...(showReseller ? [{ title: t('user.resellerId'), dataIndex: 'rid', width: 100, defaultHidden: true, render: (v: number) => v || '-' }] : []),
    { title: t('user.remark'), dataIndex: 'remark', width: 140, defaultHidden: true, ellipsis: true, render: (v: string) => v || '-' },
    timeColumn(t('user.createdAt'), 'created_at'),
  ] as ResourceColumn<ManagedUser | Reseller>[];
}

export function accountFilters(t: T, showReseller: boolean): FilterField[] {
  return [
    { field: 'user_id', kind: 'custom', valueType: 'number', label: t('user.userId'), render: () => <UserSelect data-testid="filter-user_id" /> },
    ...(showReseller ? [{ field: 'rid', kind: 'custom' as const, valueType: 'number' as const, label: t('user.resellerId'), render: () => <ResellerSelect data-testid="filter-rid" /> }] : []),
    { field: 'account', kind: 'text', label: t('user.account') },
    { field: 'name', kind: 'text', label: t('user.name') },
    { field: 'email', kind: 'text', label: t('user.email') },
    { field: 'quota', kind: 'number', label: t('user.quotaBelow') },
    { field: 'status', kind: 'status', label: t('user.status') },
    { field: 'remark', kind: 'text', label: t('user.remark') },
    { field: 'created_at', kind: 'dateRange', label: t('user.createdAt') },
  ];
}
