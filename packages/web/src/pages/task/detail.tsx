// A task in a drawer: every docs/SPEC.md §3.11 field, the reserved and charged quota, and the result with players
// (audio, video with its cover) besides the links.
import type { ReactNode } from 'react';
import { Descriptions, Divider, Drawer, Space, Spin, Typography } from '@arco-design/web-react';
import type { Task, TaskKind } from '@fastgate/core/entities/task';
import { CopyButton } from '../../components/CopyButton';
import { MaskedKey } from '../../components/MaskedKey';
import { useResourceDetail } from '../../hooks/resource';
import { usePageLocale } from '../../locale';
import { usd } from '../../components/Usd';
import { lineTypeTag, TaskStatusTag, type T } from './columns';
import locale from './locale';
import { Cover, MediaLink } from './media';
import { httpUrl } from './safe-url';
import { taskPrefix } from './prefix';
import { detailColumns } from '../../lib/layout';

const withCopy = (text: string, testId: string) =>
  text ? (
    <Space size={2}>
      <span data-testid={testId}>{text}</span>
      <CopyButton fetch={text} />
    </Space>
  ) : (
    '-'
  );

function Media({ task, t }: { task: Task; t: T }) {
  const audio = httpUrl(task.audio_url);
  const video = httpUrl(task.video_url);
  if (!audio && !video && !httpUrl(task.video_pic)) return <Typography.Text type="secondary">{t('task.detail.none')}</Typography.Text>;
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      {audio && (
        <Space direction="vertical" size={4} style={{ width: '100%' }}>
          <MediaLink url={task.audio_url} label={task.audio_url} />
          <audio controls preload="none" src={audio} style={{ width: '100%' }} data-testid="task-detail-audio" />
        </Space>
      )}
      {video && (
        <Space direction="vertical" size={4} style={{ width: '100%' }}>
          <MediaLink url={task.video_url} label={task.video_url} />
          <video controls preload="none" src={video} poster={httpUrl(task.video_pic)} style={{ width: '100%', maxHeight: 360, background: '#000' }} data-testid="task-detail-video" />
        </Space>
      )}
      {!video && httpUrl(task.video_pic) && <Cover url={task.video_pic} size={160} />}
    </Space>
  );
}

function Body({ task, showOwner, t }: { task: Task; showOwner: boolean; t: T }) {
  const rows: ({ label: ReactNode; value: ReactNode } | false)[] = [
    { label: t('task.taskId'), value: withCopy(task.task_id, 'task-detail-task-id') },
    { label: t('task.status'), value: <TaskStatusTag status={task.status} t={t} /> },
    { label: t('task.traceId'), value: withCopy(task.trace_id, 'task-detail-trace') },
    { label: t('task.model'), value: task.model },
    showOwner && { label: t('task.userId'), value: task.user_id },
    { label: t('task.appId'), value: task.app_id },
    { label: t('task.creator'), value: <MaskedKey value={task.creator} /> },
    { label: t('task.peopleId'), value: task.people_id || '-' },
    { label: t('task.lineType'), value: lineTypeTag(t, task.line_type) },
    { label: t('task.duration'), value: task.video_time ? t('task.seconds', { n: task.video_time }) : '-' },
    { label: t('task.createdAt'), value: task.created_at },
    { label: t('task.updatedAt'), value: task.updated_at || '-' },
    { label: t('task.completedAt'), value: task.completed_at || '-' },
  ];
  return (
    <div data-testid="task-detail">
      <Descriptions column={detailColumns(2)} border size="small" labelStyle={{ width: 100 }} data={rows.filter((r): r is { label: ReactNode; value: ReactNode } => r !== false)} />
      {task.err_msg && (
        <Typography.Paragraph type="error" style={{ marginTop: 12, whiteSpace: 'pre-wrap' }} data-testid="task-detail-error">
          {task.err_msg}
        </Typography.Paragraph>
      )}
      <Divider orientation="left">{t('task.detail.money')}</Divider>
      <Descriptions
        column={detailColumns(2)}
        border
        size="small"
        data={[
          { label: t('task.reserved'), value: usd(task.reserved) },
          { label: t('task.charged'), value: <span data-testid="task-detail-charged">{usd(task.total_price)}</span> },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t('task.detail.moneyHint')}
      </Typography.Paragraph>
      <Divider orientation="left">{t('task.detail.media')}</Divider>
      <Media task={task} t={t} />
    </div>
  );
}

export function TaskDetailDrawer({ kind, id, showOwner, onClose }: { kind: TaskKind; id: string | undefined; showOwner: boolean; onClose: () => void }) {
  const t = usePageLocale(locale);
  const detail = useResourceDetail<Task>(taskPrefix(kind), id);
  return (
    <Drawer width={760} visible={!!id} title={t('task.detail.title')} onCancel={onClose} footer={null} unmountOnExit data-testid="task-detail-drawer">
      <Spin loading={detail.isLoading} style={{ display: 'block', minHeight: 120 }}>
        {detail.data && <Body task={detail.data} showOwner={showOwner} t={t} />}
      </Spin>
    </Drawer>
  );
}
