// Reseller create and update (admin): the account form of the user screens.
import { AccountForm } from '../../user/form';

export const CreateReseller = () => <AccountForm kind="reseller" mode="create" />;
export const UpdateReseller = () => <AccountForm kind="reseller" mode="update" />;
