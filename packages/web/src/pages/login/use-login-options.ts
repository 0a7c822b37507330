import { useQuery } from '@tanstack/react-query';
import type { Channel } from '@fastgate/core/constants';
import type { LoginOptions, OpenSysConfig } from '@fastgate/core/schemas/auth';
import { SYS_CONFIG_DEFAULTS } from '@fastgate/core/sys-config';
import { authApi } from '../../api/auth';

const SECTION: Record<Channel, keyof OpenSysConfig> = {
  user: 'user_login_register',
  reseller: 'reseller_login_register',
  admin: 'admin_login',
};

/** Which tabs and links a login screen shows (`GET /open/sys/config`), defaults until it answers. */
export function useLoginOptions(channel: Channel): { options: LoginOptions; loading: boolean } {
  const { data, isLoading } = useQuery({ queryKey: ['open', 'sys', 'config'], queryFn: authApi.openSysConfig, staleTime: 60_000 });
  const section = SECTION[channel];
  const options = { ...SYS_CONFIG_DEFAULTS[section], ...data?.[section] };
  // Admins never self-register (docs/SPEC.md §2.4: the admin screen says to contact an administrator).
  if (channel === 'admin') options.email_register = false;
  return { options, loading: isLoading };
}
