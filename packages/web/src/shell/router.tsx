// The router, generated from the route table of core (no second route list). Every screen route runs the
// guards as its loader and shows its page from ./pages.
import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { appRoutes, publicRoutes, screenRoutes } from '@fastgate/core/routes';
import type { Channel } from '@fastgate/core/constants';
import { useUserStore } from '../stores/user';
import { guardLoader, notFoundLoader } from './guards';
import { landingPath } from './routing';
import { routePath } from '../lib/navigation';
import { Root } from './Root';
import { RouteError } from './RouteError';
import NotFound from '../pages/exception/NotFound';
import { PageOutlet } from './layout/PageOutlet';
import type { RouteHandle } from './current-route';

function screens(): RouteObject[] {
  return screenRoutes
    .filter((route) => route.requiresAuth)
    .map((route) => ({
      path: route.path,
      loader: guardLoader(route),
      handle: { route } satisfies RouteHandle,
      element: <PageOutlet name={route.name} />,
    }));
}

/** Area paths (`/model` → `/model/list`) redirect to their screen, or their first visible one. */
function areaRedirects(): RouteObject[] {
  return appRoutes.flatMap((area) => {
    if (!area.redirect) return [];
    const children = area.children ?? [];
    const direct = children.find((c) => c.path === area.redirect);
    const target = direct ?? children.find((c) => !c.hidden);
    return target ? [{ path: area.path, loader: () => redirect(target.path) }] : [];
  });
}

const loadLogin = () => import('../pages/login');

function loginRoute(channel: Channel, path: string): RouteObject {
  return {
    path,
    lazy: async () => {
      const { default: LoginPage } = await loadLogin();
      return { Component: () => <LoginPage channel={channel} /> };
    },
  };
}

export function createRouter() {
  return createBrowserRouter([
    {
      element: <Root />,
      // The first load runs the guards before anything renders.
      HydrateFallback: () => null,
      children: [
        {
          errorElement: <RouteError />,
          children: [
            { path: '/', loader: () => redirect(useUserStore.getState().token ? landingPath() : routePath('login')) },
            // The login screens: `/login` is the user channel, `/admin` and `/reseller` are named after theirs.
            ...publicRoutes.map((route) => loginRoute(route.name === 'login' ? 'user' : route.name, route.path)),
            {
              lazy: async () => ({ Component: (await import('./layout/Layout')).default }),
              // Unknown paths: not-found inside the layout when signed in (its loader answers 404 otherwise).
              children: [...screens(), ...areaRedirects(), { path: '*', loader: notFoundLoader, element: <NotFound embedded /> }],
            },
          ],
        },
      ],
    },
  ]);
}
