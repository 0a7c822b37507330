// Columns and search fields of the call-log lists (docs/ORIGINAL-API.md §1.6, §3.14), one set for every kind. Rows
// carry the masked app key; its copy button reveals the real one through `/log/<kind>/copy/field`.
import { Space, Tag, Typography } from '@arco-design/web-react';
import { LOG_KIND_TYPES, LogStatus, type CallLogRow, type LogKind } from '@fastgate/core/entities/call-log';
import { MODEL_AGENT_PREFIX } from '@fastgate/core/entities/model-agent';
import { usd } from '../../components/Usd';
import type { ResourceColumn } from '../../components/ResourceTable';
import { timeColumn } from '../../components/time-column';
import { CopyableId } from '../../components/CopyableId';
import { MaskedKey } from '../../components/MaskedKey';
import { ModelSelect } from '../../components/ModelSelect';
import { ResourceSelect } from '../../components/ResourceSelect';
import type { FilterField } from '../../components/SearchForm';
import type locale from './locale';
import { AccountSelect } from '../../components/UserSelect';
import { AppSelect } from '../../components/AppSelect';

export type T = (key: keyof (typeof locale)['zh-CN'], vars?: Record<string, string | number>) => string;

/** Who is looking: owners (admin, reseller) get the user column and filter, admins the routing fields. */
export interface Viewer {
  showOwner: boolean;
  admin: boolean;
}

const STATUS_COLORS: Record<number, string> = {
  [LogStatus.Success]: 'green',
  [LogStatus.Failed]: 'red',
  [LogStatus.Aborted]: 'orange',
  [LogStatus.Retry]: 'gold',
};
/** Kinds billed by tokens; the task kinds (digital human, voice clone, video remix) are billed by units. */
const TOKEN_KINDS: readonly LogKind[] = ['chat', 'image', 'audio'];
/** The result filter's choices, "not success" (-100) last. */
const STATUS_FILTER = [LogStatus.Success, LogStatus.Failed, LogStatus.Aborted, LogStatus.Retry, LogStatus.Abnormal] as const;

export const statusText = (t: T, status: number) => t(`log.status.${status}` as 'log.status.1');

export function LogStatusTag({ status, t }: { status: number; t: T }) {
  return (
    <Tag color={STATUS_COLORS[status]} size="small" bordered data-testid="log-status">
      {statusText(t, status)}
    </Tag>
  );
}


export const ms = (t: T, n: number | undefined) => <span style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>{t('log.ms', { n: n ?? 0 })}</span>;

const num = (n: number) => <span style={{ fontVariantNumeric: 'tabular-nums' }}>{n}</span>;

export function logColumns(t: T, kind: LogKind, viewer: Viewer, copyCreator: (id: string) => Promise<string>): ResourceColumn<CallLogRow>[] {
  const { showOwner, admin } = viewer;
  const columns: (ResourceColumn<CallLogRow> | false)[] = [
    timeColumn(t('log.reqTime'), 'req_time'),
    {
      title: t('log.traceId'),
      dataIndex: 'trace_id',
      width: 160,
      render: (trace: string) => <CopyableId id={trace} maxWidth={96} />,
    },
    showOwner && { title: t('log.userId'), dataIndex: 'user_id', width: 90 },
    { title: t('log.appId'), dataIndex: 'app_id', width: 90, defaultHidden: showOwner },
    {
      title: t('log.model'),
      dataIndex: 'model',
      width: 130,
      render: (model: string, row) => (
        <Space direction="vertical" size={0}>
          <span>
            {model}
            {admin && row.is_smart_match && (
              <Tag size="small" color="purple" style={{ marginLeft: 4 }}>
                {t('log.smartMatch')}
              </Tag>
            )}
          </span>
          {admin && row.real_model && row.real_model !== model && <Typography.Text type="secondary">→ {row.real_model}</Typography.Text>}
        </Space>
      ),
    },
    admin && { title: t('log.agent'), dataIndex: 'model_agent_name', width: 140, defaultHidden: true, ellipsis: true, render: (name: string) => name || '-' },
    { title: t('log.status'), dataIndex: 'status', width: 90, render: (status: number) => <LogStatusTag status={status} t={t} /> },
    { title: t('log.spend'), dataIndex: 'total_price', width: 100, align: 'right', render: (quota: number, row) => <span data-testid={`log-spend-${row.id}`}>{usd(quota)}</span> },
    TOKEN_KINDS.includes(kind) && { title: t('log.promptTokens'), dataIndex: 'prompt_tokens', width: 80, align: 'right', render: num },
    TOKEN_KINDS.includes(kind) && { title: t('log.completionTokens'), dataIndex: 'completion_tokens', width: 80, align: 'right', render: num },
    kind === 'chat' && { title: t('log.stream'), dataIndex: 'stream', width: 70, defaultHidden: true, render: (stream: boolean) => (stream ? <Tag size="small" color="arcoblue">{t('log.yes')}</Tag> : <Tag size="small">{t('log.no')}</Tag>) },
    { title: t('log.connTime'), dataIndex: 'conn_time', width: 95, defaultHidden: true, align: 'right', render: (n: number) => ms(t, n) },
    { title: t('log.duration'), dataIndex: 'duration', width: 95, defaultHidden: true, align: 'right', render: (n: number) => ms(t, n) },
    { title: t('log.totalTime'), dataIndex: 'total_time', width: 95, defaultHidden: true, align: 'right', render: (n: number) => ms(t, n) },
    admin && { title: t('log.internalTime'), dataIndex: 'internal_time', width: 90, defaultHidden: true, align: 'right', render: (n: number) => ms(t, n) },
    {
      title: t('log.creator'),
      dataIndex: 'creator',
      width: 230,
      defaultHidden: true,
      render: (creator: string, row) => <MaskedKey value={creator} copy={() => copyCreator(row.id)} testId={`log-creator-${row.id}`} />,
    },
  ];
  return columns.filter((c): c is ResourceColumn<CallLogRow> => c !== false);
}

export function logFilters(t: T, kind: LogKind, { showOwner, admin }: Viewer): FilterField[] {
  const types = LOG_KIND_TYPES[kind];
  const fields: (FilterField | false)[] = [
    { field: 'trace_id', kind: 'text', label: t('log.traceId') },
    showOwner && { field: 'user_id', kind: 'custom', valueType: 'number', label: t('log.userId'), render: () => <AccountSelect data-testid="filter-user_id" /> },
    {
      field: 'app_id',
      kind: 'custom',
      valueType: 'number',
      label: t('log.app'),
      render: () => <AppSelect data-testid="filter-app_id" />,
    },
    { field: 'key', kind: 'text', label: t('log.key'), placeholder: t('log.key.placeholder') },
    {
      field: 'models',
      kind: 'custom',
      multiple: true,
      label: t('log.models'),
      // Logs record the requested model name; only the models of this screen's types are offered.
      render: () => <ModelSelect optionValue={(m) => m.name} filterItems={(m) => types.includes(m.type)} data-testid="filter-models" />,
    },
    admin && {
      field: 'model_agents',
      kind: 'custom',
      multiple: true,
      label: t('log.agents'),
      render: () => <ResourceSelect<{ id: string; name: string }> prefix={MODEL_AGENT_PREFIX} mode="multiple" labelOf={(a) => a.name} placeholder={t('log.agents.placeholder')} data-testid="filter-model_agents" />,
    },
    { field: 'status', kind: 'select', valueType: 'number', label: t('log.status'), options: STATUS_FILTER.map((s) => ({ value: s, label: statusText(t, s) })) },
    { field: 'req_time', kind: 'dateRange', showTime: true, span: 16, label: t('log.reqTime') },
    { field: 'total_time', kind: 'number', label: t('log.totalTime'), placeholder: t('log.totalTimeMin') },
  ];
  return fields.filter((f): f is FilterField => f !== false);
}
