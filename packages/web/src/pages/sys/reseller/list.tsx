// Reseller list (admin): the account list with allocated / to-be-allocated quota in dollars.
import { AccountList } from '../../user/list';

export default function ResellerList() {
  return <AccountList kind="reseller" />;
}
