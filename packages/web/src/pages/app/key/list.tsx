// App keys (docs/SPEC.md §2.2, all roles; /app/key?app_id=…): the `/key` page of type 1 with the masked key and
// its copy button, create / batch create / edit in a modal, batch status and delete through
// `/app/key/batch/operate`, and the xlsx export.
import { useEffect, useMemo, useState } from 'react';
import { Button, Message } from '@arco-design/web-react';
import { IconDownload, IconPlus, IconPlusCircle } from '@arco-design/web-react/icon';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { APP_PREFIX, type AppOption } from '@fastgate/core/entities/app';
import type { AppKey } from '@fastgate/core/entities/app-key';
import { Status } from '@fastgate/core/constants';
import { KEY_PREFIX, KeyType } from '@fastgate/core/entities/provider-key';
import { ADMIN_RESELLER } from '@fastgate/core/routes';
import { usePermission } from '../../../components/Permission';
import { ResourceTable, type BatchAction } from '../../../components/ResourceTable';
import { resourceKeys, useResourceList, useResourcePage } from '../../../hooks/resource';
import { routePath } from '../../../lib/navigation';
import { useGlobalLocale, usePageLocale } from '../../../locale';
import { appKeyApi } from './api';
import { appKeyColumns, appKeyFilters } from './columns';
import { saveBlob } from '../../../api/download';
import { APP_KEY_EXPORT_FILE } from './download';
import { KeyModal, type KeyModalMode } from './KeyModal';
import { KeyReveal } from './KeyReveal';
import locale from './locale';

const FIXED = { type: KeyType.App };

/**
 * The list, or with `open` the list under the create or edit modal: `/key/create` and `/key/update?id=` open
 * these for resellers and users (docs/SPEC.md §2.2 gives every role those routes; model keys are the admin's).
 * Closing the modal, and the reveal of a new key, leaves for the list's own route.
 */
export default function AppKeyList({ open }: { open?: 'create' | 'update' }) {
  const t = usePageLocale(locale);
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const { g } = useGlobalLocale();
  const client = useQueryClient();
  const showOwner = usePermission(ADMIN_RESELLER);
  const filters = useMemo(() => appKeyFilters(t), [t]);
  const page = useResourcePage<AppKey>(KEY_PREFIX, filters, FIXED);
  const [modal, setModal] = useState<{ mode: KeyModalMode; id?: string } | undefined>(() => (open ? { mode: open, id: search.get('id') ?? undefined } : undefined));
  const [created, setCreated] = useState<string[]>([]);
  const [exporting, setExporting] = useState(false);
  useEffect(() => {
    if (open && !modal && created.length === 0) navigate(routePath('app.key'), { replace: true });
  }, [open, modal, created, navigate]);

  const appId = typeof page.values.app_id === 'number' ? page.values.app_id : undefined;
  const apps = useResourceList<AppOption>(APP_PREFIX, { silent: true });
  const app = appId ? apps.data?.find((a) => a.app_id === appId) : undefined;
  const columns = useMemo(() => appKeyColumns(t, showOwner, !app), [t, showOwner, app]);

  const refresh = () => client.invalidateQueries({ queryKey: resourceKeys.all(KEY_PREFIX) });
  const batch = async (action: 'status' | 'delete', ids: string[], value?: number) => {
    await appKeyApi.batch({ action, ids, value });
    await refresh();
  };
  const download = async (body: Parameters<typeof appKeyApi.export>[0]) => {
    setExporting(true);
    try {
      await saveBlob(await appKeyApi.export(body), APP_KEY_EXPORT_FILE);
      Message.success(t('appKey.exported'));
    } catch {
      // Shown by the HTTP client or saveBlob.
    } finally {
      setExporting(false);
    }
  };

  const batchActions: BatchAction[] = [
    { key: 'enable', label: g('resource.enable'), confirm: (count) => t('appKey.batch.enable.confirm', { count }), run: (ids) => batch('status', ids, Status.Normal) },
    { key: 'disable', label: g('resource.disable'), confirm: (count) => t('appKey.batch.disable.confirm', { count }), run: (ids) => batch('status', ids, Status.Disabled), status: 'warning' },
    { key: 'delete', label: g('resource.delete'), confirm: (count) => t('appKey.batch.delete.confirm', { count }), run: (ids) => batch('delete', ids), status: 'danger' },
    { key: 'export', label: t('appKey.exportSelected'), run: (ids) => download({ ids }) },
  ];

  return (
    <>
      <ResourceTable
        page={page}
        columns={columns}
        title={app ? t('appKey.titleOf', { name: app.name, id: app.app_id }) : t('appKey.title')}
        batch={false}
        batchActions={batchActions}
        rowActions={[{ key: 'edit', label: g('resource.edit'), onClick: (row) => setModal({ mode: 'update', id: row.id }) }]}
        toolbar={
          <>
            <Button type="primary" icon={<IconPlus />} onClick={() => setModal({ mode: 'create' })} data-testid="app-key-create">
              {t('appKey.create')}
            </Button>
            <Button icon={<IconPlusCircle />} onClick={() => setModal({ mode: 'batch' })} data-testid="app-key-batch-create">
              {t('appKey.batchCreate')}
            </Button>
            <Button
              icon={<IconDownload />}
              loading={exporting}
              onClick={() => void download({ app_id: appId })}
              data-testid="app-key-export"
            >
              {t('appKey.export')}
            </Button>
          </>
        }
      />
      <KeyModal mode={modal?.mode} id={modal?.id} appId={appId} onClose={() => setModal(undefined)} onCreated={setCreated} />
      <KeyReveal keys={created} onClose={() => setCreated([])} />
    </>
  );
}
