// User list (admin, reseller: its own users) and, with kind="reseller", the reseller list (admin):
// the resource table plus recharge, permissions, a two-factor reset and a delete that asks what else to purge.
import { useMemo, useState } from 'react';
import { RESELLER_PREFIX, USER_PREFIX, type ManagedUser } from '@fastgate/core/entities/user';
import { ADMIN_ONLY } from '@fastgate/core/routes';
import { usePermission } from '../../components/Permission';
import { ResourceTable, type ResourceRoutes } from '../../components/ResourceTable';
import { useResourcePage } from '../../hooks/resource';
import { useScreenTitle } from '../../hooks/screen-title';
import { useGlobalLocale, usePageLocale } from '../../locale';
import { accountColumns, accountFilters, type Kind } from './columns';
import { DeleteDialog, PermissionsDialog, RechargeDialog, TwoFactorResetDialog } from './dialogs';
import locale from './locale';

function AccountList({ kind }: { kind: Kind }) {
  const t = usePageLocale(locale);
  const { g } = useGlobalLocale();
  const admin = usePermission(ADMIN_ONLY);
  const showReseller = kind === 'user' && admin;
  const prefix = kind === 'user' ? USER_PREFIX : RESELLER_PREFIX;
  const filters = useMemo(() => accountFilters(t, showReseller), [t, showReseller]);
  const columns = useMemo(() => accountColumns(t, kind, showReseller), [t, kind, showReseller]);
  const page = useResourcePage<ManagedUser>(prefix, filters);
  const title = useScreenTitle();
  const [recharge, setRecharge] = useState<ManagedUser>();
  const [permissions, setPermissions] = useState<ManagedUser>();
  const [removing, setRemoving] = useState<ManagedUser>();
  const [resetting, setResetting] = useState<ManagedUser>();
  const routes: ResourceRoutes = kind === 'user' ? { create: 'user.create', update: 'user.update', detail: 'user.detail' } : { create: 'sys.reseller.create', update: 'sys.reseller.update', detail: 'sys.reseller.detail' };
  return (
    <>
      <ResourceTable
        page={page}
        title={title}
        columns={columns}
        routes={routes}
        deletable={false}
        alsoInvalidate={kind === 'user' ? [RESELLER_PREFIX] : [USER_PREFIX]}
        rowActions={[
          { key: 'recharge', label: t('user.recharge'), onClick: setRecharge },
          { key: 'permissions', label: t('user.permissions'), onClick: setPermissions },
          { key: 'two-factor-reset', label: t('user.twoFactorReset'), onClick: setResetting },
          { key: 'delete', label: g('resource.delete'), onClick: setRemoving, status: 'danger' },
        ]}
      />
      <RechargeDialog prefix={prefix} row={recharge} onClose={() => setRecharge(undefined)} t={t} />
      <PermissionsDialog prefix={prefix} row={permissions} onClose={() => setPermissions(undefined)} t={t} />
      <DeleteDialog prefix={prefix} row={removing} onClose={() => setRemoving(undefined)} t={t} kind={kind} />
      <TwoFactorResetDialog prefix={prefix} row={resetting} onClose={() => setResetting(undefined)} t={t} />
    </>
  );
}

export default function UserList() {
  return <AccountList kind="user" />;
}

/** The reseller list (admin): the account list with allocated / to-be-allocated quota in dollars. */
export function ResellerList() {
  return <AccountList kind="reseller" />;
}
