// Route name → lazily loaded page. Keyed by core's `RouteName`, so a screen of the route table without a
// page here fails to compile; a new screen is its route, one line here and its folder under src/pages/.
import { createElement, lazy, type ComponentType } from 'react';
import { REDIRECT_ROUTE, USER_CENTER, type RouteName } from '@fastgate/core/routes';
import { corpPages } from '../pages/corp';
import { modelPages } from '../pages/model';
import { myModelPages } from '../pages/my/model';
import { agentPages } from '../pages/agent';
import { keyPages } from '../pages/key';
import { groupPages } from '../pages/group';
import { appPages } from '../pages/app';
import { appKeyPages, appKeyScreens } from '../pages/app/key';
import { vipPages } from '../pages/sys/vip';
import { licensePages } from '../pages/license';
import { resellerPages, userPages } from '../pages/user';
import { siteConfigPages } from '../pages/sys/site';
import { sysConfigPages } from '../pages/sys/config';
import { auditPages } from '../pages/sys/audit';
import { logPages } from '../pages/log';
import { taskPages } from '../pages/task';
import { dashboardPages } from '../pages/dashboard';
import { financePages } from '../pages/finance';
import { useUserStore } from '../stores/user';

export interface LazyPage {
  /** Suspends while its chunk loads (the page outlet shows the spinner). */
  Component: ComponentType;
  /** Loads the chunk; the guard awaits it so the progress bar covers the download. */
  preload: () => Promise<unknown>;
}

type PageLoader = () => Promise<{ default: ComponentType }>;

function lazyPage(load: PageLoader): LazyPage {
  let pending: Promise<{ default: ComponentType }> | undefined;
  const preload = () => (pending ??= load());
  return { Component: lazy(preload), preload };
}

/** A screen folder's `index.ts` (route name → loader) as lazy pages. */
function lazyPages<Name extends RouteName>(loaders: Record<Name, PageLoader>): Record<Name, LazyPage> {
  return Object.fromEntries(Object.entries<PageLoader>(loaders).map(([name, load]) => [name, lazyPage(load)])) as Record<Name, LazyPage>;
}

/**
 * A screen whose page depends on the caller's role, picked at render so a role change in the same tab follows:
 * `/key/create|update` edit model keys for admins and app keys for everyone else (docs/SPEC.md §2.2).
 */
function byRole(admin: LazyPage, others: LazyPage): LazyPage {
  const pick = (role: string | undefined) => (role === 'admin' ? admin : others);
  const Component = () => createElement(pick(useUserStore((s) => s.role)).Component);
  return { Component, preload: () => pick(useUserStore.getState().role).preload() };
}

const keyScreens = lazyPages(keyPages);
const appKeyForms = lazyPages(appKeyScreens);

export const pages: Record<RouteName, LazyPage> = {
  [USER_CENTER]: lazyPage(() => import('../pages/user/center')),
  [REDIRECT_ROUTE]: lazyPage(() => import('../pages/redirect')),
  ...lazyPages(corpPages),
  ...lazyPages(modelPages),
  ...lazyPages(myModelPages),
  ...lazyPages(agentPages),
  ...keyScreens,
  'key.create': byRole(keyScreens['key.create'], appKeyForms['key.create']),
  'key.update': byRole(keyScreens['key.update'], appKeyForms['key.update']),
  ...lazyPages(groupPages),
  'my.group': lazyPage(() => import('../pages/my/group')),
  ...lazyPages(appPages),
  ...lazyPages(appKeyPages),
  ...lazyPages(vipPages),
  'vip.center': lazyPage(() => import('../pages/vip/center')),
  ...lazyPages(licensePages),
  'sys.license.info': lazyPage(() => import('../pages/sys/license/info')),
  ...lazyPages(userPages),
  ...lazyPages(resellerPages),
  ...lazyPages(siteConfigPages),
  ...lazyPages(sysConfigPages),
  ...lazyPages(auditPages),
  ...lazyPages(taskPages),
  ...lazyPages(logPages),
  ...lazyPages(dashboardPages),
  ...lazyPages(financePages),
};
