// Session actions shared by the guards, the HTTP client and the navbar (docs/SPEC.md §4.1).
import { authApi } from '../api/auth';
import { userApi } from '../api/user';
import { useTabsStore } from '../stores/tabs';
import { useUserStore } from '../stores/user';
import { queryClient } from '../lib/query';

export const SERVER_MENU_KEY = ['serverMenu'] as const;

/** Logout always clears the user, token, role, tabs and server menu, even if the call fails. */
export async function logout(): Promise<void> {
  try {
    if (useUserStore.getState().token) await authApi.logout();
  } catch {
    // docs/SPEC.md §4.1: the local session ends regardless.
  } finally {
    useUserStore.getState().clear();
    useTabsStore.getState().reset();
    queryClient.removeQueries({ queryKey: SERVER_MENU_KEY });
  }
}

export async function loadUserInfo(silent = false) {
  const info = await userApi.info(silent);
  useUserStore.getState().setInfo(info);
  return info;
}
