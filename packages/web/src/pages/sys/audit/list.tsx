// The audit log (issue 11, under sys): every write, reveal, export and sign-in of admins and resellers,
// newest first; an admin sees everyone's rows, a reseller its own (the server's scope, not this screen's).
// Filters by time, kind, actor, action, table and record; the detail drawer shows before and after side
// by side; the export streams the filtered (or selected) rows as xlsx.
import { useMemo, useState } from 'react';
import { Button, Message, Space, Tag, Tooltip, Typography } from '@arco-design/web-react';
import { IconDownload } from '@arco-design/web-react/icon';
import { AUDIT_EXPORT_FILE, AUDIT_KINDS, AUDIT_PREFIX, type AuditLog } from '@fastgate/core/entities/audit-log';
import { ADMIN_ONLY } from '@fastgate/core/routes';
import { saveBlob } from '../../../api/download';
import { usePermission } from '../../../components/Permission';
import { ResourceTable, type ResourceColumn } from '../../../components/ResourceTable';
import { timeColumn } from '../../../components/time-column';
import type { FilterField } from '../../../components/SearchForm';
import { useResourcePage } from '../../../hooks/resource';
import { compactFilters } from '../../../hooks/url-query';
import { usePageLocale } from '../../../locale';
import { auditApi, type AuditFilterBody } from './api';
import { AuditDetailDrawer } from './detail';
import locale from './locale';
import { Actor, KindTag, type T } from './parts';
import { AccountSelect } from '../../../components/UserSelect';

function filtersFor(t: T, admin: boolean): FilterField[] {
  return [
    { field: 'created_at', kind: 'dateRange', showTime: true, span: 16, label: t('audit.createdAt') },
    { field: 'kind', kind: 'select', label: t('audit.kind'), options: AUDIT_KINDS.map((k) => ({ value: k, label: t(`audit.kind.${k}`) })) },
    // A reseller's rows are all its own: no actor to choose.
    ...(admin
      ? [
          { field: 'user_id', kind: 'custom' as const, valueType: 'number' as const, label: t('audit.userId'), render: () => <AccountSelect data-testid="filter-user_id" /> },
          { field: 'account', kind: 'text' as const, label: t('audit.account') },
        ]
      : []),
    { field: 'action', kind: 'text', label: t('audit.action'), placeholder: t('audit.action.placeholder') },
    { field: 'table_name', kind: 'text', label: t('audit.table') },
    { field: 'record_id', kind: 'text', label: t('audit.recordId') },
  ];
}

function columnsFor(t: T): ResourceColumn<AuditLog>[] {
  return [
    timeColumn(t('audit.createdAt'), 'created_at'),
    { title: t('audit.kind'), dataIndex: 'kind', width: 100, render: (_: unknown, row) => <KindTag kind={row.kind} t={t} /> },
    { title: t('audit.actor'), dataIndex: 'account', width: 210, render: (_: unknown, row) => <Actor row={row} t={t} /> },
    { title: t('audit.ip'), dataIndex: 'ip', width: 130, defaultHidden: true, render: (ip: string) => ip || '-' },
    {
      title: t('audit.action'),
      dataIndex: 'action',
      width: 280,
      render: (action: string) => (
        <Typography.Text code style={{ whiteSpace: 'nowrap' }}>
          {action.replace(/^\/api\/v1/, '')}
        </Typography.Text>
      ),
    },
    { title: t('audit.table'), dataIndex: 'table_name', width: 130, render: (v: string) => v || '-' },
    {
      title: t('audit.records'),
      dataIndex: 'record_ids',
      width: 200,
      defaultHidden: true,
      render: (ids: string[]) =>
        ids.length ? (
          <Tooltip content={ids.join(', ')} disabled={ids.length < 2}>
            <Typography.Text style={{ whiteSpace: 'nowrap' }}>
              {ids[0]}
              {ids.length > 1 && <Typography.Text type="secondary"> +{ids.length - 1}</Typography.Text>}
            </Typography.Text>
          </Tooltip>
        ) : (
          '-'
        ),
    },
    {
      title: t('audit.changed'),
      dataIndex: 'changed',
      width: 260,
      defaultHidden: true,
      // One line per row: the first fields, the rest in a tooltip (the detail shows them all).
      render: (fields: string[]) =>
        fields.length ? (
          <Space size={4} wrap={false}>
            {fields.slice(0, 3).map((f) => (
              <Tag key={f} size="small">
                {f}
              </Tag>
            ))}
            {fields.length > 3 && (
              <Tooltip content={fields.slice(3).join(', ')}>
                <Tag size="small">+{fields.length - 3}</Tag>
              </Tooltip>
            )}
          </Space>
        ) : (
          '-'
        ),
    },
  ];
}

export default function AuditList() {
  const t = usePageLocale(locale);
  const admin = usePermission(ADMIN_ONLY);
  const filters = useMemo(() => filtersFor(t, admin), [t, admin]);
  const columns = useMemo(() => columnsFor(t), [t]);
  const page = useResourcePage<AuditLog>(AUDIT_PREFIX, filters);
  const [detail, setDetail] = useState<string>();
  const [exporting, setExporting] = useState(false);

  const download = async (body: AuditFilterBody & { ids?: string[] }) => {
    setExporting(true);
    try {
      await saveBlob(await auditApi.export(body), AUDIT_EXPORT_FILE);
      Message.success(t('audit.exported'));
    } catch {
      // Shown by the HTTP client or saveBlob.
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <ResourceTable
        page={page}
        columns={columns}
        title={t('audit.title')}
        onDetail={(row) => setDetail(row.id)}
        statusColumn={false}
        deletable={false}
        batch={false}
        batchActions={[{ key: 'export', label: t('audit.exportSelected'), run: (ids) => download({ ids }) }]}
        toolbar={
          <Button icon={<IconDownload />} loading={exporting} onClick={() => void download(compactFilters(page.values) as AuditFilterBody)} data-testid="audit-export">
            {t('audit.export')}
          </Button>
        }
      />
      <AuditDetailDrawer id={detail} onClose={() => setDetail(undefined)} />
    </>
  );
}
