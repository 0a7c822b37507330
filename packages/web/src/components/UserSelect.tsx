// Account pickers searched on the server (`GET /picker/account`): by name, account, email or user_id,
// within what the caller may see (an admin everyone, a reseller itself and its users). The wire value
// stays the numeric user_id.
import type { AccountOption } from '@fastgate/core/entities/picker';
import type { Role } from '@fastgate/core/constants';
import { useGlobalLocale } from '../locale';
import { RemoteSelect, type RemoteSelectProps } from './RemoteSelect';

type Props = Omit<RemoteSelectProps<AccountOption>, 'kind' | 'valueOf' | 'labelOf' | 'subOf' | 'params'>;

/** The account (login name), and the email when it is not the account itself. */
const subOf = (a: AccountOption) => (a.email && a.email !== a.account ? `${a.account} · ${a.email}` : a.account);

export function AccountSelect({ role, rid, ...rest }: Props & { role?: Role; rid?: number }) {
  const { g } = useGlobalLocale();
  return (
    <RemoteSelect<AccountOption>
      placeholder={g(role === 'reseller' ? 'picker.reseller' : role === 'user' ? 'picker.user' : 'picker.account')}
      {...rest}
      kind="account"
      params={{ role, rid }}
      valueOf={(a) => a.user_id}
      labelOf={(a) => a.name || a.account}
      subOf={subOf}
    />
  );
}

/** End users (a reseller's own only). */
export const UserSelect = (props: Props & { rid?: number }) => <AccountSelect {...props} role="user" />;

/** Resellers (admins only). */
export const ResellerSelect = (props: Props) => <AccountSelect {...props} role="reseller" />;
