// Columns and search fields of the model key list (docs/ORIGINAL-API.md §3.4). Status and actions come from
// ResourceTable; keys are masked, and the copy button fetches the full value on click. Health is each
// key's circuit breaker as the gateway sees it (issue 13).
import { Space, Typography } from '@arco-design/web-react';
import type { BreakerInfo } from '@fastgate/core/entities/breaker';
import type { ModelKey } from '@fastgate/core/entities/provider-key';
import { formatUsd } from '@fastgate/core/money';
import { CorpSelect } from '../../components/CorpSelect';
import type { ResourceColumn } from '../../components/ResourceTable';
import { timeColumn } from '../../components/time-column';
import { MaskedKey } from '../../components/MaskedKey';
import { ModelSelect } from '../../components/ModelSelect';
import type { FilterField } from '../../components/SearchForm';
import type { PageDict } from '../../locale';
import { AgentSelect } from '../../components/AgentSelect';
import { FlagTag } from '../../components/FlagTag';
import { AutoDisabledTag } from '../../components/health/AutoDisabledTag';
import { BreakerTag } from '../../components/health/BreakerTag';
import { NameTags } from '../../components/NameTags';
import { revealModelKey } from './api';
import type locale from './locale';

type Key = typeof locale extends PageDict<infer K> ? K : never;
type T = (key: Key, vars?: Record<string, string | number>) => string;

export function keyColumns(t: T, health: ReadonlyMap<string, BreakerInfo>): ResourceColumn<ModelKey>[] {
  return [
    { title: t('key.key'), dataIndex: 'key', width: 240, render: (key: string, row) => <MaskedKey value={key} copy={() => revealModelKey(row.id)} testId={`key-mask-${row.id}`} /> },
    { title: t('key.health'), dataIndex: 'id', key: 'health', width: 160, defaultHidden: true, render: (id: string) => <BreakerTag info={health.get(id)} testId={`key-breaker-${id}`} /> },
    { title: t('key.corp'), dataIndex: 'corp_name', width: 140, defaultHidden: true },
    { title: t('key.models'), dataIndex: 'model_names', width: 160, render: (names: string[]) => <NameTags names={names} /> },
    { title: t('key.modelAgents'), dataIndex: 'model_agent_names', width: 150, render: (names: string[]) => <NameTags names={names} color="purple" /> },
    {
      title: t('key.quotaCol'),
      dataIndex: 'quota',
      width: 160,
      defaultHidden: true,
      render: (quota: number, row) => (
        <Space size={4} style={{ fontVariantNumeric: 'tabular-nums' }}>
          <span>{row.is_limit_quota ? formatUsd(quota) : t('key.unlimited')}</span>
          <Typography.Text type="secondary">/ {formatUsd(row.used_quota)}</Typography.Text>
        </Space>
      ),
    },
    { title: t('key.weight'), dataIndex: 'weight', width: 70, defaultHidden: true },
    { title: t('key.agentsOnly'), dataIndex: 'is_agents_only', width: 90, defaultHidden: true, render: (v: boolean) => <FlagTag value={v} yes={t('key.yes')} no={t('key.no')} /> },
    { title: t('key.neverDisable'), dataIndex: 'is_never_disable', width: 90, defaultHidden: true, render: (v: boolean) => <FlagTag value={v} yes={t('key.yes')} no={t('key.no')} /> },
    {
      title: t('key.autoDisabled'),
      dataIndex: 'is_auto_disabled',
      width: 110,
      defaultHidden: true,
      render: (v: boolean, row) => <AutoDisabledTag disabled={v} reason={row.auto_disabled_reason} testId={`key-auto-disabled-${row.id}`} />,
    },
    { title: t('key.remark'), dataIndex: 'remark', width: 140, defaultHidden: true, ellipsis: true, render: (remark: string) => remark || '-' },
    timeColumn(t('key.createdAt'), 'created_at'),
  ];
}

export function keyFilters(t: T): FilterField[] {
  return [
    { field: 'corp', kind: 'custom', label: t('key.corp'), render: () => <CorpSelect data-testid="filter-corp" /> },
    { field: 'key', kind: 'text', label: t('key.key') },
    { field: 'models', kind: 'custom', multiple: true, label: t('key.models'), render: () => <ModelSelect data-testid="filter-models" /> },
    { field: 'model_agents', kind: 'custom', multiple: true, label: t('key.agentFilter'), render: () => <AgentSelect data-testid="filter-model_agents" /> },
    { field: 'status', kind: 'status', label: t('key.status') },
    { field: 'remark', kind: 'text', label: t('key.remark') },
  ];
}
