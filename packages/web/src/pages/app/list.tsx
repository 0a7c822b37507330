// App list (docs/SPEC.md §2.2, all roles; each sees its own scope): the resource table plus a "keys" action that
// opens the app-key list filtered by this app.
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { APP_PREFIX, type App } from '@fastgate/core/entities/app';
import { ADMIN_RESELLER } from '@fastgate/core/routes';
import { routePath } from '../../lib/navigation';
import { usePermission } from '../../components/Permission';
import { ResourceTable } from '../../components/ResourceTable';
import { useResourcePage } from '../../hooks/resource';
import { useScreenTitle } from '../../hooks/screen-title';
import { usePageLocale } from '../../locale';
import { appColumns, appFilters } from './columns';
import locale from './locale';

const ALSO = ['/key'] as const;

export default function AppList() {
  const t = usePageLocale(locale);
  const navigate = useNavigate();
  const showOwner = usePermission(ADMIN_RESELLER);
  const filters = useMemo(() => appFilters(t, showOwner), [t, showOwner]);
  const columns = useMemo(() => appColumns(t, showOwner), [t, showOwner]);
  const page = useResourcePage<App>(APP_PREFIX, filters);
  const title = useScreenTitle();
  return (
    <ResourceTable
      page={page}
      title={title}
      columns={columns}
      routes={{ create: 'app.create', update: 'app.update' }}
      alsoInvalidate={ALSO}
      rowActions={[{ key: 'keys', label: t('app.keys'), onClick: (row) => navigate(`${routePath('app.key')}?app_id=${row.app_id}`) }]}
    />
  );
}
