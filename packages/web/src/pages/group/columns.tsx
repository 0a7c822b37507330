// Columns and search fields of the group list (docs/ORIGINAL-API.md §3.8). Status and actions come from ResourceTable.
import { Space, Typography } from '@arco-design/web-react';
import { GROUP_PREFIX, type Group } from '@fastgate/core/entities/group';
import { ModelSelect } from '../../components/ModelSelect';
import type { ResourceColumn } from '../../components/ResourceTable';
import type { FilterField } from '../../components/SearchForm';
import { PublicSwitch } from '../../components/StatusSwitch';
import type { PageDict } from '../../locale';
import { AgentSelect } from '../../components/AgentSelect';
import { DefaultGroupTag, DiscountTag, ExpiresAt, QuotaUsed, RateLimitTags } from '../../components/group/GroupTags';
import { NameTags } from '../../components/NameTags';
import type locale from './locale';

type Key = typeof locale extends PageDict<infer K> ? K : never;
type T = (key: Key, vars?: Record<string, string | number>) => string;

export function groupColumns(t: T): ResourceColumn<Group>[] {
  return [
    {
      title: t('group.name'),
      dataIndex: 'name',
      width: 150,
      render: (name: string, row) => (
        <Space size={6}>
          <Typography.Text bold>{name}</Typography.Text>
          {row.is_default && <DefaultGroupTag testId={`group-default-${row.id}`} />}
        </Space>
      ),
    },
    { title: t('group.discount'), dataIndex: 'discount', width: 90, render: (d: number, row) => <DiscountTag fraction={d} testId={`group-discount-${row.id}`} /> },
    { title: t('group.models'), dataIndex: 'model_names', width: 160, render: (names: string[]) => <NameTags names={names} /> },
    { title: t('group.rateLimits'), dataIndex: 'rate_limits', width: 150, render: (_: unknown, row) => <RateLimitTags limits={row.rate_limits} /> },
    { title: t('group.isPublic'), dataIndex: 'is_public', width: 90, render: (value: boolean, row) => <PublicSwitch prefix={GROUP_PREFIX} id={row.id} value={value} /> },
    { title: t('group.weight'), dataIndex: 'weight', width: 70, defaultHidden: true },
    { title: t('group.expiresAt'), dataIndex: 'expires_at', width: 190, defaultHidden: true, render: (value: string) => <ExpiresAt value={value} /> },
    { title: t('group.quotaCol'), dataIndex: 'quota', width: 150, defaultHidden: true, render: (_: unknown, row) => <QuotaUsed limited={row.is_limit_quota} quota={row.quota} used={row.used_quota} /> },
    { title: t('group.remark'), dataIndex: 'remark', width: 140, defaultHidden: true, ellipsis: true, render: (remark: string) => remark || '-' },
  ];
}

/** Agents are admin-only records, so only an admin filters by them. */
export function groupFilters(t: T, admin: boolean): FilterField[] {
  return [
    { field: 'name', kind: 'text', label: t('group.name') },
    { field: 'models', kind: 'custom', multiple: true, label: t('group.models'), render: () => <ModelSelect data-testid="filter-models" /> },
    ...(admin ? [{ field: 'model_agents', kind: 'custom' as const, multiple: true, label: t('group.agentFilter'), render: () => <AgentSelect data-testid="filter-model_agents" /> }] : []),
    { field: 'remark', kind: 'text', label: t('group.remark') },
    { field: 'status', kind: 'status', label: t('group.status') },
    // docs/ORIGINAL-API.md §2.5 quirk: the expiry range travels as `created_at`.
    { field: 'created_at', kind: 'dateRange', label: t('group.expiresAt') },
  ];
}
