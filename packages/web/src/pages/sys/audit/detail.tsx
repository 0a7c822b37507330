// One audit row in a drawer: who, when, where, what, and the record's fields before and after side by
// side (changed lines marked, unchanged ones hidden unless asked), then the request as sent. Secrets
// arrive masked from the server.
import { useMemo, useState } from 'react';
import { Alert, Descriptions, Divider, Drawer, Space, Spin, Switch, Table, Typography, type TableColumnProps } from '@arco-design/web-react';
import { AUDIT_PREFIX, type AuditLogDetail } from '@fastgate/core/entities/audit-log';
import { useResourceDetail } from '../../../hooks/resource';
import { usePageLocale } from '../../../locale';
import { diffLines, type DiffLine } from './diff';
import locale from './locale';
import { Actor, KindTag, type T } from './parts';
import { serverTimeText } from '../../../lib/server-time';
import { detailColumns } from '../../../lib/layout';

const cell = (text: string | undefined, t: T, changed: boolean, side: 'before' | 'after') =>
  text === undefined ? (
    <Typography.Text type="secondary">-</Typography.Text>
  ) : (
    <span
      style={{
        fontFamily: 'monospace',
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-all',
        ...(changed ? { background: side === 'before' ? 'rgb(var(--red-1))' : 'rgb(var(--green-1))', padding: '0 4px', borderRadius: 2 } : {}),
      }}
      title={text.length > 200 ? text : undefined}
    >
      {text === '' ? <Typography.Text type="secondary">""</Typography.Text> : text}
    </span>
  );

function Diff({ log, t }: { log: AuditLogDetail; t: T }) {
  const lines = useMemo(() => diffLines(log.before, log.after, log.changed, serverTimeText), [log]);
  const anyChanged = lines.some((l) => l.changed);
  const [onlyChanged, setOnlyChanged] = useState(anyChanged);
  if (!lines.length) return <Typography.Text type="secondary">{t('audit.detail.noValues')}</Typography.Text>;
  const shown = onlyChanged ? lines.filter((l) => l.changed) : lines;
  const columns: TableColumnProps<DiffLine>[] = [
    { title: t('audit.detail.field'), dataIndex: 'path', width: 200, render: (p: string, l) => <Typography.Text bold={l.changed}>{p}</Typography.Text> },
    { title: t('audit.detail.before'), dataIndex: 'before', render: (v: string | undefined, l) => cell(v, t, l.changed, 'before') },
    { title: t('audit.detail.after'), dataIndex: 'after', render: (v: string | undefined, l) => cell(v, t, l.changed, 'after') },
  ];
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {anyChanged && (
        <Space>
          <Switch size="small" checked={onlyChanged} onChange={setOnlyChanged} data-testid="audit-only-changed" />
          <Typography.Text>{t('audit.detail.onlyChanged')}</Typography.Text>
        </Space>
      )}
      <Table rowKey="path" size="small" border columns={columns} data={shown} pagination={false} data-testid="audit-diff" />
    </Space>
  );
}

export function AuditDetailDrawer({ id, onClose }: { id: string | undefined; onClose: () => void }) {
  const t = usePageLocale(locale);
  const detail = useResourceDetail<AuditLogDetail>(AUDIT_PREFIX, id);
  const log = detail.data;
  return (
    <Drawer width={960} visible={!!id} title={t('audit.detail.title')} onCancel={onClose} footer={null} unmountOnExit data-testid="audit-detail-drawer">
      <Spin loading={detail.isLoading} style={{ display: 'block', minHeight: 120 }}>
        {log && (
          <>
            <Descriptions
              column={detailColumns(2)}
              border
              size="small"
              data={[
                { label: t('audit.createdAt'), value: log.created_at },
                { label: t('audit.kind'), value: <KindTag kind={log.kind} t={t} /> },
                { label: t('audit.actor'), value: <Actor row={log} t={t} /> },
                { label: t('audit.ip'), value: log.ip || '-' },
                { label: t('audit.action'), value: <Typography.Text code>{log.action}</Typography.Text>, span: 2 },
                { label: t('audit.table'), value: log.table_name || '-' },
                { label: t('audit.records'), value: log.record_ids.join(', ') || '-' },
              ]}
            />
            <Divider orientation="left">{t('audit.detail.diff')}</Divider>
            <Alert type="info" showIcon content={t('audit.detail.masked')} style={{ marginBottom: 12 }} />
            <Diff log={log} t={t} />
            <Divider orientation="left">{t('audit.detail.input')}</Divider>
            {log.input === null ? (
              <Typography.Text type="secondary">{t('audit.detail.none')}</Typography.Text>
            ) : (
              <Typography.Paragraph
                style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', background: 'var(--color-fill-2)', padding: '8px 12px', borderRadius: 4, margin: 0, maxHeight: 320, overflow: 'auto', fontFamily: 'monospace' }}
                data-testid="audit-input"
              >
                {JSON.stringify(log.input, null, 2)}
              </Typography.Paragraph>
            )}
          </>
        )}
      </Spin>
    </Drawer>
  );
}
