// Navigation from outside React (HTTP client, session timeouts). The router registers itself at start.
import type { Role } from '@fastgate/core/constants';
import { findRoute, type PublicRouteName, type RouteName } from '@fastgate/core/routes';

type Navigate = (to: string, options?: { replace?: boolean }) => void;
let navigator: Navigate | null = null;
let heading: (() => string) | null = null;

/** `to`: where the router is going (see headingTo). */
export function setNavigator(fn: Navigate, to: () => string): void {
  navigator = fn;
  heading = to;
}

/**
 * Where the user is going (path and query): the navigation under way, its page's chunk still loading, else
 * the router's current page, which a busy device may not have rendered yet (the router renders in a
 * transition). What the last render's location says can be a page behind.
 */
export function headingTo(): string {
  return heading ? heading() : addressBar();
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

/**
 * The page in the address bar (path and query), as the `from` state of the screen opened next: read when
 * the user acts, not from the last render. The router renders a navigation in a transition, so on a busy
 * device a click can still run with the previous render's location, and the way back would lose a filter
 * just submitted.
 */
export function openedFrom(): { from: string } {
  return { from: addressBar() };
}

/** The page in the address bar: path and query. */
function addressBar(): string {
  return window.location.pathname + window.location.search;
}

/** Where a screen opened with `openedFrom` goes back to: that page (one of ours), else `fallback`. */
export function backTo(state: unknown, fallback: string): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : fallback;
}
