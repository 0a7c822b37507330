// The screen route being shown: the router puts it in each screen's `handle`; the root (page title) and
// the layout (tabs, breadcrumb) read it back. Apart from router.tsx so neither imports the router.
import { useMatches } from 'react-router';
import type { ScreenRoute } from '@fastgate/core/routes';

export interface RouteHandle {
  route: ScreenRoute;
}

export function useCurrentRoute(): ScreenRoute | undefined {
  const matches = useMatches();
  return (matches.at(-1)?.handle as RouteHandle | undefined)?.route;
}
