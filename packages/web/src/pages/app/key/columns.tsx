// Columns and search fields of the app-key list (docs/ORIGINAL-API.md §3.3). Rows carry the masked key; the copy
// button fetches the full one through `/key/copy/field`.
import { Space, Tag, Typography } from '@arco-design/web-react';
import { QuotaExpiresRule, type AppKey } from '@fastgate/core/entities/app-key';
import { MaskedKey } from '../../../components/MaskedKey';
import { ModelSelect } from '../../../components/ModelSelect';
import type { ResourceColumn } from '../../../components/ResourceTable';
import { timeColumn } from '../../../components/time-column';
import type { FilterField } from '../../../components/SearchForm';
import { ModelTags, QuotaCell } from '../columns';
import { appKeyApi } from './api';
import type locale from './locale';
import { AppSelect } from '../../../components/AppSelect';

type T = (key: keyof (typeof locale)['zh-CN'], vars?: Record<string, string | number>) => string;

function Expiry({ row, t }: { row: AppKey; t: T }) {
  if (row.quota_expires_rule === QuotaExpiresRule.Duration) {
    return (
      <Space direction="vertical" size={0}>
        <span>{t('appKey.afterFirstUse', { minutes: row.quota_expires_minutes })}</span>
        {row.quota_expires_at && <Typography.Text type="secondary">{row.quota_expires_at}</Typography.Text>}
      </Space>
    );
  }
  return <span>{row.quota_expires_at || t('appKey.never')}</span>;
}

/** `showApp`: off when the list is scoped to one app (its name is in the title). */
export function appKeyColumns(t: T, showOwner: boolean, showApp: boolean): ResourceColumn<AppKey>[] {
  return [
    { title: t('appKey.key'), dataIndex: 'key', width: 230, render: (key: string, row) => <MaskedKey value={key} copy={() => appKeyApi.copy(row.id)} testId={`key-${row.id}`} /> },
    ...(showApp
      ? [
          {
            title: t('appKey.app'),
            dataIndex: 'app_name',
            width: 150,
            render: (name: string, row: AppKey) => (
              <span>
                {name} <Typography.Text type="secondary">({row.app_id})</Typography.Text>
              </span>
            ),
          },
        ]
      : []),
    ...(showOwner ? [{ title: t('appKey.userId'), dataIndex: 'user_id', width: 90, defaultHidden: true }] : []),
    { title: t('appKey.models'), dataIndex: 'model_names', width: 170, render: (names: string[]) => <ModelTags names={names ?? []} empty="-" /> },
    { title: t('appKey.group'), dataIndex: 'group_name', width: 100, defaultHidden: true, render: (name: string, row) => (row.is_bind_group && name ? <Tag color="arcoblue">{name}</Tag> : '-') },
    { title: t('appKey.quota'), dataIndex: 'quota', width: 150, render: (_: unknown, row) => <QuotaCell row={row} unlimited={t('appKey.unlimited')} /> },
    { title: t('appKey.expiresAt'), dataIndex: 'quota_expires_at', width: 170, defaultHidden: true, render: (_: unknown, row) => <Expiry row={row} t={t} /> },
    { title: t('appKey.remark'), dataIndex: 'remark', width: 120, defaultHidden: true, ellipsis: true, render: (remark: string) => remark || '-' },
    timeColumn(t('appKey.createdAt'), 'created_at', { defaultHidden: true }),
  ];
}

export function appKeyFilters(t: T): FilterField[] {
  return [
    {
      field: 'app_id',
      kind: 'custom',
      valueType: 'number',
      label: t('appKey.app'),
      render: () => <AppSelect data-testid="filter-app_id" />,
    },
    { field: 'key', kind: 'text', label: t('appKey.key') },
    { field: 'models', kind: 'custom', multiple: true, label: t('appKey.models'), render: () => <ModelSelect data-testid="filter-models" /> },
    { field: 'quota', kind: 'number', label: t('appKey.quotaBelow'), placeholder: t('appKey.quotaBelow.placeholder') },
    { field: 'status', kind: 'status', label: t('appKey.status') },
    { field: 'remark', kind: 'text', label: t('appKey.remark') },
    { field: 'quota_expires_at', kind: 'dateRange', label: t('appKey.expiresAt') },
  ];
}
