// Navigation guards of docs/SPEC.md §2.3, run as the loader of every screen route.
import { redirect, type LoaderFunctionArgs } from 'react-router';
import { canOpen, firstOpenRoute } from '@fastgate/core/access';
import { USER_CENTER, type ScreenRoute } from '@fastgate/core/routes';
import { useSettingsStore } from '../stores/settings';
import { useUserStore } from '../stores/user';
import { pages } from './pages';
import { routePath } from '../lib/navigation';
import { loginRedirectPath } from './routing';
import { ensureServerMenu, SERVER_MENU_WHITELIST } from './server-menu';
import { loadUserInfo, logout } from './session';

/** Renders the not-found screen in place (the root error boundary reads the 404). */
function notFound(): Response {
  return new Response(null, { status: 404, statusText: 'Not Found' });
}

async function checkAccess(route: ScreenRoute, url: URL): Promise<void> {
  if (!route.requiresAuth) return;
  // Rule 2: without a token only the login screens open.
  if (!useUserStore.getState().token) throw redirect(loginRedirectPath(route.name, url.searchParams));
  // Rule 1: a token but no role loaded yet → user info first; failure ends the session.
  if (!useUserStore.getState().info) {
    try {
      await loadUserInfo(true);
    } catch {
      await logout();
      throw redirect(loginRedirectPath(route.name, url.searchParams));
    }
  }
  // Two-factor sign-in required and not set up yet: only the user center's security tab works (code 70).
  if (useUserStore.getState().info?.two_factor_setup && route.name !== USER_CENTER) throw redirect(`${routePath(USER_CENTER)}?tab=security`);
  // Rule 3: the role lists of the route table.
  const role = useUserStore.getState().role;
  if (!canOpen(role, route)) {
    const first = firstOpenRoute(role);
    if (first && first.name !== route.name) throw redirect(first.path);
    throw notFound();
  }
  // Rule 4: menus from the server.
  if (useSettingsStore.getState().menuFromServer && !SERVER_MENU_WHITELIST.has(route.name)) {
    const names = await ensureServerMenu();
    if (!names.has(route.name)) throw notFound();
  }
}

/**
 * A path no route knows: a signed-in caller sees not-found inside the layout (this route's element); anyone else,
 * or a token the server no longer knows, the bare not-found page (the root error boundary reads the 404).
 */
export async function notFoundLoader(): Promise<null> {
  if (!useUserStore.getState().token) throw notFound();
  if (!useUserStore.getState().info) {
    try {
      await loadUserInfo(true);
    } catch {
      await logout();
      throw notFound();
    }
  }
  return null;
}

export function guardLoader(route: ScreenRoute) {
  return async ({ request }: LoaderFunctionArgs) => {
    await checkAccess(route, new URL(request.url));
    await pages[route.name].preload();
    return null;
  };
}
