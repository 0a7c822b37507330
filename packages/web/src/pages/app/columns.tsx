// Columns and search fields of the app list (docs/ORIGINAL-API.md §3.2). Status and actions come from ResourceTable.
import { Space, Tag, Typography } from '@arco-design/web-react';
import type { App } from '@fastgate/core/entities/app';
import { formatUsd } from '@fastgate/core/money';
import { ModelSelect } from '../../components/ModelSelect';
import type { ResourceColumn } from '../../components/ResourceTable';
import type { FilterField } from '../../components/SearchForm';
import type locale from './locale';
import { AccountSelect } from '../../components/UserSelect';
import { AppSelect } from '../../components/AppSelect';

type T = (key: keyof (typeof locale)['zh-CN']) => string;

/** Model names as tags, the first few only. */
export function ModelTags({ names, empty }: { names: readonly string[]; empty: string }) {
  if (!names.length) return <Typography.Text type="secondary">{empty}</Typography.Text>;
  const shown = names.slice(0, 3);
  return (
    <Space size={4} wrap>
      {shown.map((n) => (
        <Tag key={n} size="small">
          {n}
        </Tag>
      ))}
      {names.length > shown.length && <Tag size="small">+{names.length - shown.length}</Tag>}
    </Space>
  );
}

/** "$used / $quota" when the record is limited. */
export function QuotaCell({ row, unlimited }: { row: Pick<App, 'is_limit_quota' | 'quota' | 'used_quota'>; unlimited: string }) {
  if (!row.is_limit_quota) return <Typography.Text type="secondary">{unlimited}</Typography.Text>;
  return (
    <span style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
      {formatUsd(row.used_quota)} / {formatUsd(row.quota)}
    </span>
  );
}

export function appColumns(t: T, showOwner: boolean): ResourceColumn<App>[] {
  return [
    { title: t('app.appId'), dataIndex: 'app_id', width: 90 },
    { title: t('app.name'), dataIndex: 'name', width: 160, render: (name: string) => <Typography.Text bold>{name}</Typography.Text> },
    ...(showOwner ? [{ title: t('app.userId'), dataIndex: 'user_id', width: 90 }] : []),
    { title: t('app.models'), dataIndex: 'model_names', width: 180, render: (names: string[]) => <ModelTags names={names ?? []} empty={t('app.noModels')} /> },
    { title: t('app.group'), dataIndex: 'group_name', width: 120, defaultHidden: true, render: (name: string, row) => (row.is_bind_group && name ? <Tag color="arcoblue">{name}</Tag> : '-') },
    { title: `${t('app.usedQuota')} / ${t('app.quota')}`, dataIndex: 'quota', width: 150, render: (_: unknown, row) => <QuotaCell row={row} unlimited={t('app.unlimited')} /> },
    { title: t('app.expiresAt'), dataIndex: 'quota_expires_at', width: 160, defaultHidden: true, render: (at: string) => at || t('app.never') },
    { title: t('app.remark'), dataIndex: 'remark', width: 140, defaultHidden: true, ellipsis: true, render: (remark: string) => remark || '-' },
  ];
}

export function appFilters(t: T, showOwner: boolean): FilterField[] {
  return [
    ...(showOwner ? [{ field: 'user_id', kind: 'custom' as const, valueType: 'number' as const, label: t('app.userId'), render: () => <AccountSelect data-testid="filter-user_id" /> }] : []),
    { field: 'app_id', kind: 'custom', valueType: 'number', label: t('app.appId'), render: () => <AppSelect data-testid="filter-app_id" /> },
    { field: 'name', kind: 'text', label: t('app.name') },
    { field: 'models', kind: 'custom', multiple: true, label: t('app.models'), render: () => <ModelSelect data-testid="filter-models" /> },
    { field: 'app_key', kind: 'text', label: t('app.appKey'), placeholder: t('app.appKey.placeholder') },
    { field: 'remark', kind: 'text', label: t('app.remark') },
    { field: 'status', kind: 'status', label: t('app.status') },
    { field: 'quota_expires_at', kind: 'dateRange', label: t('app.expiresAt') },
  ];
}
