// Columns and search fields of the model agent list (docs/ORIGINAL-API.md §3.6). Status and actions come from
// ResourceTable.
import { Tooltip, Typography } from '@arco-design/web-react';
import type { ModelAgent } from '@fastgate/core/entities/model-agent';
import { CorpSelect } from '../../components/CorpSelect';
import type { ResourceColumn } from '../../components/ResourceTable';
import { timeColumn } from '../../components/time-column';
import { ModelSelect } from '../../components/ModelSelect';
import type { FilterField } from '../../components/SearchForm';
import type { PageDict } from '../../locale';
import type locale from './locale';
import { AutoDisabledTag } from '../../components/health/AutoDisabledTag';
import { NameTags } from '../../components/NameTags';

type Key = typeof locale extends PageDict<infer K> ? K : never;
type T = (key: Key, vars?: Record<string, string | number>) => string;

export function agentColumns(t: T): ResourceColumn<ModelAgent>[] {
  return [
    { title: t('agent.name'), dataIndex: 'name', width: 160, render: (name: string) => <Typography.Text bold>{name}</Typography.Text> },
    { title: t('agent.corp'), dataIndex: 'corp_name', width: 110 },
    {
      title: t('agent.baseUrl'),
      dataIndex: 'base_url',
      width: 240,
      defaultHidden: true,
      render: (url: string, row) => (
        <Tooltip content={`${url}${row.path}`}>
          <Typography.Text ellipsis style={{ maxWidth: 220, margin: 0 }}>
            {url}
            {row.path && <Typography.Text type="secondary">{row.path}</Typography.Text>}
          </Typography.Text>
        </Tooltip>
      ),
    },
    { title: t('agent.weight'), dataIndex: 'weight', width: 80, defaultHidden: true },
    { title: t('agent.models'), dataIndex: 'model_names', width: 200, render: (names: string[]) => <NameTags names={names} /> },
    {
      title: t('agent.keyCount'),
      dataIndex: 'key_count',
      width: 80,
      render: (count: number, row) => (
        <Typography.Text type={count ? undefined : 'warning'} data-testid={`agent-keys-${row.id}`}>
          {count}
        </Typography.Text>
      ),
    },
    {
      title: t('agent.autoDisabled'),
      dataIndex: 'is_auto_disabled',
      width: 110,
      defaultHidden: true,
      render: (value: boolean, row) => <AutoDisabledTag disabled={value} reason={row.auto_disabled_reason} testId={`agent-auto-disabled-${row.id}`} />,
    },
    { title: t('agent.remark'), dataIndex: 'remark', width: 160, defaultHidden: true, ellipsis: true, render: (remark: string) => remark || '-' },
    timeColumn(t('agent.createdAt'), 'created_at'),
  ];
}

export function agentFilters(t: T): FilterField[] {
  return [
    { field: 'corp', kind: 'custom', label: t('agent.corp'), render: () => <CorpSelect data-testid="filter-corp" /> },
    { field: 'name', kind: 'text', label: t('agent.name') },
    { field: 'base_url', kind: 'text', label: t('agent.baseUrl') },
    { field: 'path', kind: 'text', label: t('agent.path') },
    { field: 'models', kind: 'custom', multiple: true, label: t('agent.models'), render: () => <ModelSelect data-testid="filter-models" /> },
    { field: 'remark', kind: 'text', label: t('agent.remark') },
    { field: 'status', kind: 'status', label: t('agent.status') },
    { field: 'created_at', kind: 'dateRange', label: t('agent.createdAt') },
  ];
}
