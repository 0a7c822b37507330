// Reseller detail (admin, `?id=`).
import { AccountDetail } from '../../user/detail';

export default function ResellerDetail() {
  return <AccountDetail kind="reseller" />;
}
