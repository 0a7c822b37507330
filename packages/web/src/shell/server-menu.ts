// Guard rule 4 (docs/SPEC.md §2.3): with menuFromServer on, only routes in the server menu or the whitelist open.
import { Notification } from '@arco-design/web-react';
import type { ServerMenuItem } from '@fastgate/core/api';
import { NOT_FOUND_ROUTE, REDIRECT_ROUTE, USER_CENTER, publicRoutes } from '@fastgate/core/routes';
import { menuApi } from '../api/site';
import { i18n } from '../locale';
import { queryClient } from '../lib/query';
import { SERVER_MENU_KEY } from './session';

export const SERVER_MENU_WHITELIST = new Set<string>([...publicRoutes.map((r) => r.name), NOT_FOUND_ROUTE, REDIRECT_ROUTE, USER_CENTER]);

const NOTICE_ID = 'server-menu';

/** docs/SPEC.md §8: a loading, then a success or an error notification. */
async function fetchServerMenu(): Promise<ServerMenuItem[]> {
  Notification.info({ id: NOTICE_ID, content: i18n.t('menuLoad.loading'), closable: true });
  try {
    const data = await menuApi.serverMenu();
    Notification.success({ id: NOTICE_ID, content: i18n.t('menuLoad.success'), closable: true });
    return data?.items ?? [];
  } catch (error) {
    Notification.error({ id: NOTICE_ID, content: i18n.t('menuLoad.error'), closable: true });
    throw error;
  }
}

export const serverMenuQuery = { queryKey: SERVER_MENU_KEY, queryFn: fetchServerMenu, staleTime: Infinity } as const;

export function menuNames(items: readonly ServerMenuItem[]): Set<string> {
  const names = new Set<string>();
  const walk = (list: readonly ServerMenuItem[]) =>
    list.forEach((item) => {
      names.add(item.name);
      if (item.children) walk(item.children);
    });
  walk(items);
  return names;
}

/** The server menu's route names, fetched when empty; an empty set when the fetch fails. */
export async function ensureServerMenu(): Promise<Set<string>> {
  try {
    return menuNames(await queryClient.ensureQueryData(serverMenuQuery));
  } catch {
    return new Set();
  }
}
