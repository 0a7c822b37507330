// Navigation from outside React (HTTP client, session timeouts). The router registers itself at start.
import type { Role } from '@fastgate/core/constants';
import { findRoute, type PublicRouteName, type RouteName } from '@fastgate/core/routes';

type Navigate = (to: string, options?: { replace?: boolean }) => void;
let navigator: Navigate | null = null;

export function setNavigator(fn: Navigate): void {
  navigator = fn;
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  if (navigator) navigator(to, options);
  else window.location.assign(to);
}

export function routePath(name: RouteName | PublicRouteName): string {
  const path = findRoute(name)?.path;
  if (!path) throw new Error(`unknown route ${name}`);
  return path;
}

/** The login screen of a role: the public route named after the channel (login, admin, reseller). */
export function loginPath(role: Role | undefined): string {
  return routePath(role === 'admin' || role === 'reseller' ? role : 'login');
}
