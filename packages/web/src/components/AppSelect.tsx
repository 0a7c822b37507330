// App picker searched on the server (`GET /picker/app`): by name or app_id, within the caller's scope
// (a user its own apps, a reseller its users' and its own). The wire value stays the numeric app_id.
import type { AppPickerOption } from '@fastgate/core/entities/picker';
import { useGlobalLocale } from '../locale';
import { RemoteSelect, type RemoteSelectProps } from './RemoteSelect';

type Props = Omit<RemoteSelectProps<AppPickerOption>, 'kind' | 'valueOf' | 'labelOf' | 'subOf' | 'params'> & {
  /** Only this account's apps. */
  userId?: number;
};

export function AppSelect({ userId, ...rest }: Props) {
  const { g } = useGlobalLocale();
  return <RemoteSelect<AppPickerOption> placeholder={g('picker.app')} {...rest} kind="app" params={{ user_id: userId }} valueOf={(a) => a.app_id} labelOf={(a) => a.name} />;
}
