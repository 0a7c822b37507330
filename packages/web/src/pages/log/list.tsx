// Call-log lists (docs/SPEC.md §2.2, all roles, one screen per kind): server-side filters with the request time
// defaulting to today, role-dependent columns, the detail drawer, xlsx export (the chat log needs a
// request-time range and a result, docs/SPEC.md §2.4), the chat log's live RPM/TPM, and admin deletion by
// selection or by time range.
import { useMemo, useState, type ComponentType } from 'react';
import { Button, Message, Tooltip } from '@arco-design/web-react';
import { IconDelete, IconDownload } from '@arco-design/web-react/icon';
import { useQueryClient } from '@tanstack/react-query';
import { LOG_EXPORT_FILES, LOG_KINDS, type CallLogRow, type LogKind } from '@fastgate/core/entities/call-log';
import { ADMIN_ONLY, ADMIN_RESELLER } from '@fastgate/core/routes';
import { serverNow } from '../../lib/server-time';
import { usePermission } from '../../components/Permission';
import { ResourceTable, type BatchAction } from '../../components/ResourceTable';
import { resourceKeys, useResourcePage } from '../../hooks/resource';
import { compactFilters } from '../../hooks/url-query';
import { useGlobalLocale, usePageLocale } from '../../locale';
import { saveBlob } from '../../api/download';
import { logApi, logPrefix, type LogFilterBody } from './api';
import { logColumns, logFilters, type Viewer } from './columns';
import { DeleteByTime } from './DeleteByTime';
import { LogDetailDrawer } from './detail';
import { LiveRate } from './LiveRate';
import locale from './locale';

const FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** Today on the server's clock, 00:00:00 to 23:59:59, in the wire format. */
function todayRange(): string[] {
  const now = serverNow();
  return [now.startOf('day').format(FORMAT), now.endOf('day').format(FORMAT)];
}

function LogList({ kind }: { kind: LogKind }) {
  const t = usePageLocale(locale);
  const { tk } = useGlobalLocale();
  const client = useQueryClient();
  const admin = usePermission(ADMIN_ONLY);
  const showOwner = usePermission(ADMIN_RESELLER);
  const viewer: Viewer = useMemo(() => ({ admin, showOwner }), [admin, showOwner]);
  const prefix = logPrefix(kind);
  const api = useMemo(() => logApi(kind), [kind]);
  const filters = useMemo(() => logFilters(t, kind, viewer), [t, kind, viewer]);
  const columns = useMemo(() => logColumns(t, kind, viewer, (id) => api.copy(id, 'creator')), [t, kind, viewer, api]);

  // The original console opens on today's logs: with no range in the URL, today applies (and the search
  // form shows it), so a log table of millions of rows is never scanned without a time bound.
  const [today] = useState(todayRange);
  const page = useResourcePage<CallLogRow>(prefix, filters, { req_time: today });
  const values = useMemo(() => ({ req_time: today, ...page.values }), [today, page.values]);
  const filter = useMemo(() => compactFilters(values) as LogFilterBody, [values]);

  const [detail, setDetail] = useState<string>();
  const [deleting, setDeleting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: resourceKeys.all(prefix) });

  const download = async (body: LogFilterBody & { ids?: string[] }) => {
    setExporting(true);
    try {
      await saveBlob(await api.export(body), LOG_EXPORT_FILES[kind]);
      Message.success(t('log.exported'));
    } catch {
      // Shown by the HTTP client or saveBlob.
    } finally {
      setExporting(false);
    }
  };
  // docs/SPEC.md §2.4: the chat log exports only with a request-time range and a result chosen.
  const exportReady = kind !== 'chat' || (Array.isArray(filter.req_time) && filter.req_time.length === 2 && filter.status !== undefined);
  const exportButton = (
    <Button icon={<IconDownload />} loading={exporting} disabled={!exportReady} onClick={() => void download(filter)} data-testid="log-export">
      {t('log.export')}
    </Button>
  );

  const batchActions: BatchAction[] = [
    { key: 'export', label: t('log.exportSelected'), run: (ids) => download({ ids }) },
    ...(admin
      ? [
          {
            key: 'delete',
            label: t('log.delete'),
            confirm: (count: number) => t('log.batch.delete.confirm', { count }),
            status: 'danger' as const,
            run: async (ids: string[]) => {
              await api.batch({ action: 'delete', ids });
              await refresh();
            },
          },
        ]
      : []),
  ];

  return (
    <>
      <ResourceTable
        page={{ ...page, values }}
        columns={columns}
        title={tk(`menu.log.${kind}`)}
        onDetail={(row) => setDetail(row.id)}
        statusColumn={false}
        deletable={false}
        batch={false}
        batchActions={batchActions}
        toolbar={
          <>
            {exportReady ? (
              exportButton
            ) : (
              <Tooltip content={t('log.export.needs')}>
                <span data-testid="log-export-hint">{exportButton}</span>
              </Tooltip>
            )}
            {admin && (
              <Button status="danger" icon={<IconDelete />} onClick={() => setDeleting(true)} data-testid="log-delete-by-time">
                {t('log.deleteByTime')}
              </Button>
            )}
            {kind === 'chat' && <LiveRate filter={filter} />}
          </>
        }
      />
      <LogDetailDrawer kind={kind} id={detail} viewer={viewer} onClose={() => setDetail(undefined)} />
      {admin && <DeleteByTime kind={kind} visible={deleting} onClose={() => setDeleting(false)} onDone={() => void refresh()} />}
    </>
  );
}

/** One page component per kind (route names `log.<kind>`), made once so React keeps their identity. */
export const LOG_LISTS: Record<LogKind, ComponentType> = Object.fromEntries(
  LOG_KINDS.map((kind): [LogKind, ComponentType] => {
    const Page = () => <LogList kind={kind} />;
    Page.displayName = `LogList(${kind})`;
    return [kind, Page];
  }),
) as Record<LogKind, ComponentType>;
