// Where the console lands and where a login returns to (docs/SPEC.md §2, §9).
import { DEFAULT_LANDING, findRoute, isRouteName } from '@fastgate/core/routes';
import { routePath } from '../lib/navigation';

/** docs/SPEC.md §9: the console lands on the dashboard workplace. */
export function landingPath(): string {
  return routePath(DEFAULT_LANDING);
}

/** The login screen with `?redirect=<route name>&...original query` (guard rules 1 and 2). */
export function loginRedirectPath(routeName: string, search: URLSearchParams): string {
  const query = new URLSearchParams({ redirect: routeName });
  search.forEach((value, key) => {
    if (key !== 'redirect') query.append(key, value);
  });
  return `${routePath('login')}?${query.toString()}`;
}

/** After login: the route named by `redirect` with the rest of the query (an area only if it redirects), else the landing page. */
export function afterLoginPath(search: URLSearchParams): string {
  const name = search.get('redirect');
  const route = name ? findRoute(name) : undefined;
  if (!route || !route.requiresAuth || route.path.includes(':') || (!isRouteName(route.name) && !route.redirect)) return landingPath();
  const rest = new URLSearchParams(search);
  rest.delete('redirect');
  const query = rest.toString();
  return query ? `${route.path}?${query}` : route.path;
}
