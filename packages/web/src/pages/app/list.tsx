// App list (SPEC §2, all roles; each sees its own scope): the resource table plus a "keys" action that
// opens the app-key list filtered by this app.
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { APP_PREFIX, type App } from '@fastgate/core/entities/app';
import { routePath } from '../../app/navigation';
import { ResourceTable } from '../../components/ResourceTable';
import { useResourcePage } from '../../hooks/resource';
import { usePageLocale } from '../../locale';
import { useUserStore } from '../../stores/user';
import { appColumns, appFilters } from './columns';
import locale from './locale';

const ALSO = ['/key'] as const;

export default function AppList() {
  const t = usePageLocale(locale);
  const navigate = useNavigate();
  const role = useUserStore((s) => s.role);
  const showOwner = role === 'admin' || role === 'reseller';
  const filters = useMemo(() => appFilters(t, showOwner), [t, showOwner]);
  const columns = useMemo(() => appColumns(t, showOwner), [t, showOwner]);
  const page = useResourcePage<App>(APP_PREFIX, filters);
  return (
    <ResourceTable
      page={page}
      columns={columns}
      routes={{ create: 'app.create', update: 'app.update' }}
      alsoInvalidate={ALSO}
      rowActions={[{ key: 'keys', label: t('app.keys'), onClick: (row) => navigate(`${routePath('app.key')}?app_id=${row.app_id}`) }]}
    />
  );
}
