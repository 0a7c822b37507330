// Columns and search fields of the task lists (docs/SPEC.md §3.11 Task, §4.4 task status; docs/ORIGINAL-API.md §1.8 pattern),
// one set for the three kinds.
import { Tag, Typography } from '@arco-design/web-react';
import { LineType, TaskStatus, type Task } from '@fastgate/core/entities/task';
import { usd } from '../../components/Usd';
import type { ResourceColumn } from '../../components/ResourceTable';
import { timeColumn } from '../../components/time-column';
import { CopyableId } from '../../components/CopyableId';
import type { FilterField } from '../../components/SearchForm';
import type locale from './locale';
import { Cover, MediaLink } from './media';
import { AccountSelect } from '../../components/UserSelect';
import { AppSelect } from '../../components/AppSelect';

export type T = (key: keyof (typeof locale)['zh-CN'], vars?: Record<string, string | number>) => string;

const STATUS_COLORS: Record<number, string> = {
  [TaskStatus.Queued]: 'gray',
  [TaskStatus.Synthesizing]: 'arcoblue',
  [TaskStatus.Completed]: 'green',
  [TaskStatus.Failed]: 'red',
  [TaskStatus.TimedOut]: 'orange',
};
const STATUSES = [TaskStatus.Queued, TaskStatus.Synthesizing, TaskStatus.Completed, TaskStatus.Failed, TaskStatus.TimedOut] as const;
const LINE_TYPES = [LineType.Fast, LineType.Slow] as const;

/** Still moving: the list refreshes itself while such rows are on screen. */
export const isPending = (status: number) => status === TaskStatus.Queued || status === TaskStatus.Synthesizing;

export function TaskStatusTag({ status, t }: { status: number; t: T }) {
  return (
    <Tag color={STATUS_COLORS[status]} size="small" bordered data-testid="task-status">
      {t(`task.status.${status}` as 'task.status.1')}
    </Tag>
  );
}

export const lineTypeTag = (t: T, line: number) => (
  <Tag size="small" color={line === LineType.Fast ? 'purple' : undefined}>
    {t(`task.lineType.${line === LineType.Fast ? 1 : 0}`)}
  </Tag>
);


export function taskColumns(t: T, showOwner: boolean): ResourceColumn<Task>[] {
  const columns: (ResourceColumn<Task> | false)[] = [
    {
      title: t('task.taskId'),
      dataIndex: 'task_id',
      width: 200,
      render: (id: string) => <CopyableId id={id} maxWidth={140} />,
    },
    showOwner && { title: t('task.userId'), dataIndex: 'user_id', width: 90 },
    { title: t('task.appId'), dataIndex: 'app_id', width: 90, defaultHidden: showOwner },
    { title: t('task.model'), dataIndex: 'model', width: 160 },
    { title: t('task.peopleId'), dataIndex: 'people_id', width: 130, defaultHidden: true, ellipsis: true, render: (v: string) => v || '-' },
    { title: t('task.lineType'), dataIndex: 'line_type', width: 80, defaultHidden: true, render: (line: number) => lineTypeTag(t, line) },
    { title: t('task.status'), dataIndex: 'status', width: 90, render: (status: number) => <TaskStatusTag status={status} t={t} /> },
    { title: t('task.duration'), dataIndex: 'video_time', width: 80, defaultHidden: true, align: 'right', render: (n: number) => (n ? t('task.seconds', { n }) : '-') },
    { title: t('task.charged'), dataIndex: 'total_price', width: 110, align: 'right', render: (q: number, row) => <span data-testid={`task-charged-${row.id}`}>{usd(q)}</span> },
    { title: t('task.reserved'), dataIndex: 'reserved', width: 110, defaultHidden: true, align: 'right', render: (q: number) => usd(q) },
    { title: t('task.audio'), dataIndex: 'audio_url', width: 80, defaultHidden: true, render: (url: string, row) => <MediaLink url={url} label={t('task.open')} testId={`task-audio-${row.id}`} /> },
    { title: t('task.video'), dataIndex: 'video_url', width: 80, render: (url: string, row) => <MediaLink url={url} label={t('task.open')} testId={`task-video-${row.id}`} /> },
    { title: t('task.cover'), dataIndex: 'video_pic', width: 80, defaultHidden: true, render: (url: string, row) => <Cover url={url} testId={`task-cover-${row.id}`} /> },
    { title: t('task.errMsg'), dataIndex: 'err_msg', width: 180, defaultHidden: true, ellipsis: true, render: (msg: string) => (msg ? <Typography.Text type="error">{msg}</Typography.Text> : '-') },
    timeColumn(t('task.createdAt'), 'created_at'),
    timeColumn(t('task.completedAt'), 'completed_at', { defaultHidden: true }),
  ];
  return columns.filter((c): c is ResourceColumn<Task> => c !== false);
}

export function taskFilters(t: T, showOwner: boolean): FilterField[] {
  const fields: (FilterField | false)[] = [
    showOwner && { field: 'user_id', kind: 'custom', valueType: 'number', label: t('task.userId'), render: () => <AccountSelect data-testid="filter-user_id" /> },
    {
      field: 'app_id',
      kind: 'custom',
      valueType: 'number',
      label: t('task.app'),
      render: () => <AppSelect data-testid="filter-app_id" />,
    },
    { field: 'trace_id', kind: 'text', label: t('task.traceId') },
    { field: 'task_id', kind: 'text', label: t('task.taskId') },
    { field: 'people_id', kind: 'text', label: t('task.peopleId') },
    { field: 'line_type', kind: 'select', valueType: 'number', label: t('task.lineType'), options: LINE_TYPES.map((l) => ({ value: l, label: t(`task.lineType.${l}`) })) },
    { field: 'status', kind: 'select', valueType: 'number', label: t('task.status'), options: STATUSES.map((s) => ({ value: s, label: t(`task.status.${s}` as 'task.status.1') })) },
    { field: 'created_at', kind: 'dateRange', label: t('task.createdAt') },
  ];
  return fields.filter((f): f is FilterField => f !== false);
}
