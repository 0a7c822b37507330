// The route table of docs/SPEC.md §2: the one list the web router, the side menu, the guards and the
// server menu (`POST /api/user/menu`) are all built from. The table is typed `as const`, so its screen
// names form the `RouteName` union: the web's page map is keyed by it and a screen without a page fails
// to compile.
import { ANY_ROLE, type Role, type RoleOrAny } from './constants';
import { LOG_KINDS } from './entities/call-log';
import { TASK_KINDS } from './entities/task';

export interface RouteDef<Name extends string = string> {
  /** Unique name; also the i18n key suffix `menu.<name>` and the value of the guard's redirect query. */
  name: Name;
  path: string;
  /** Missing = any signed-in role. */
  roles?: readonly RoleOrAny[];
  /** false only for the public screens (login, admin, reseller, not-found). */
  requiresAuth: boolean;
  /** Position in the side menu (docs/SPEC.md §2.2 menu order); areas only. */
  menuOrder?: number;
  /** Hidden from the menu (create, update, detail, redirect screens) but still reachable. */
  hidden?: boolean;
  /** An area path that only redirects to its first screen. */
  redirect?: string;
  children?: readonly RouteDef[];
}

/** The role lists screens gate on; pages pass them to `usePermission` (the server checks them again). */
export const ADMIN_ONLY = ['admin'] as const satisfies readonly Role[];
export const ADMIN_RESELLER = ['admin', 'reseller'] as const satisfies readonly Role[];
export const RESELLER_ONLY = ['reseller'] as const satisfies readonly Role[];
const RESELLER_USER = ['reseller', 'user'] as const satisfies readonly Role[];
const ALL = [ANY_ROLE] as const;

type CrudScreen = 'list' | 'create' | 'update' | 'detail';

/** An entity's CRUD screens `<area>.<kind>` at `<base>/<kind>`; only the list shows in the menu. */
function screens<Area extends string, Kind extends CrudScreen>(area: Area, base: string, roles: readonly RoleOrAny[], kinds: readonly Kind[]): RouteDef<`${Area}.${Kind}`>[] {
  return kinds.map((kind) => ({
    name: `${area}.${kind}` as const,
    path: `${base}/${kind}`,
    roles,
    requiresAuth: true,
    hidden: kind !== 'list',
  }));
}

/** One visible screen per kind (`log.chat`, `task.audio`, …): the kinds come from their entity. */
function kindScreens<Area extends string, Kind extends string>(area: Area, kinds: readonly Kind[]): RouteDef<`${Area}.${Kind}`>[] {
  return kinds.map((kind) => ({ name: `${area}.${kind}` as const, path: `/${area}/${kind}`, roles: ALL, requiresAuth: true }));
}

export const publicRoutes = [
  { name: 'login', path: '/login', requiresAuth: false },
  { name: 'admin', path: '/admin', requiresAuth: false },
  { name: 'reseller', path: '/reseller', requiresAuth: false },
] as const satisfies readonly RouteDef[];

export type PublicRouteName = (typeof publicRoutes)[number]['name'];

export const NOT_FOUND_ROUTE = 'notFound';
export const REDIRECT_ROUTE = 'redirect';
export const USER_CENTER = 'user.center';

/** Authenticated areas in docs/SPEC.md §2.2 menu order. */
const areas = [
  {
    name: 'dashboard', path: '/dashboard', redirect: '/dashboard/workplace', roles: ALL, requiresAuth: true, menuOrder: 1,
    children: [{ name: 'dashboard.workplace', path: '/dashboard/workplace', roles: ALL, requiresAuth: true }],
  },
  {
    name: 'myModel', path: '/my', roles: RESELLER_USER, requiresAuth: true, menuOrder: 2,
    children: [{ name: 'my.model', path: '/my/model', roles: RESELLER_USER, requiresAuth: true }],
  },
  { name: 'model', path: '/model', redirect: '/model/list', roles: ADMIN_ONLY, requiresAuth: true, menuOrder: 3, children: screens('model', '/model', ADMIN_ONLY, ['list', 'create', 'update', 'detail']) },
  {
    name: 'myGroup', path: '/my-group', roles: RESELLER_USER, requiresAuth: true, menuOrder: 3,
    children: [{ name: 'my.group', path: '/my/group', roles: RESELLER_USER, requiresAuth: true }],
  },
  {
    name: 'key', path: '/key', redirect: '/key/list', roles: ALL, requiresAuth: true, menuOrder: 4,
    children: [...screens('key', '/key', ADMIN_ONLY, ['list']), ...screens('key', '/key', ALL, ['create', 'update'])],
  },
  { name: 'agent', path: '/agent', redirect: '/agent/list', roles: ADMIN_ONLY, requiresAuth: true, menuOrder: 5, children: screens('agent', '/agent', ADMIN_ONLY, ['list', 'create', 'update', 'detail']) },
  { name: 'corp', path: '/corp', redirect: '/corp/list', roles: ADMIN_ONLY, requiresAuth: true, menuOrder: 6, children: screens('corp', '/corp', ADMIN_ONLY, ['list', 'create', 'update']) },
  { name: 'group', path: '/group', redirect: '/group/list', roles: ADMIN_RESELLER, requiresAuth: true, menuOrder: 7, children: screens('group', '/group', ADMIN_RESELLER, ['list', 'create', 'update']) },
  {
    name: 'user', path: '/user', redirect: '/user/list', roles: ALL, requiresAuth: true, menuOrder: 8,
    children: [
      ...screens('user', '/user', ADMIN_RESELLER, ['list', 'create', 'update', 'detail']),
      { name: USER_CENTER, path: '/user/center', roles: ALL, requiresAuth: true },
    ],
  },
  { name: 'app', path: '/app', redirect: '/app/list', roles: ALL, requiresAuth: true, menuOrder: 9, children: screens('app', '/app', ALL, ['list', 'create', 'update']) },
  {
    name: 'appKey', path: '/app-key', roles: ALL, requiresAuth: true, menuOrder: 10,
    children: [{ name: 'app.key', path: '/app/key', roles: ALL, requiresAuth: true }],
  },
  {
    name: 'finance', path: '/finance', redirect: '/finance/bill_list', roles: ALL, requiresAuth: true, menuOrder: 11,
    children: [
      { name: 'finance.billList', path: '/finance/bill_list', roles: ALL, requiresAuth: true },
      { name: 'finance.billDetail', path: '/finance/bill_detail', roles: ALL, requiresAuth: true, hidden: true },
      { name: 'finance.dealRecord', path: '/finance/deal_record', roles: ALL, requiresAuth: true },
    ],
  },
  {
    name: 'task', path: '/task', redirect: '/task/audio', roles: ALL, requiresAuth: true, menuOrder: 12,
    children: kindScreens('task', TASK_KINDS),
  },
  {
    name: 'log', path: '/log', redirect: '/log/chat', roles: ALL, requiresAuth: true, menuOrder: 13,
    children: kindScreens('log', LOG_KINDS),
  },
  {
    name: 'sys', path: '/sys', roles: ADMIN_RESELLER, requiresAuth: true, menuOrder: 20,
    children: [
      ...screens('sys.reseller', '/sys/reseller', ADMIN_ONLY, ['list', 'create', 'update', 'detail']),
      ...screens('sys.vip', '/sys/vip', ADMIN_RESELLER, ['list', 'create', 'update']),
      { name: 'sys.site.config', path: '/sys/site/config', roles: ADMIN_RESELLER, requiresAuth: true },
      { name: 'sys.site.create', path: '/sys/site/config/create', roles: ADMIN_RESELLER, requiresAuth: true, hidden: true },
      { name: 'sys.site.update', path: '/sys/site/config/update', roles: ADMIN_RESELLER, requiresAuth: true, hidden: true },
      { name: 'sys.site.detail', path: '/sys/site/config/detail', roles: ADMIN_RESELLER, requiresAuth: true, hidden: true },
      { name: 'sys.config', path: '/sys/config', roles: ADMIN_ONLY, requiresAuth: true },
      // Issue 11: the admin reads every row, a reseller its own (the server enforces it).
      { name: 'sys.audit', path: '/sys/audit', roles: ADMIN_RESELLER, requiresAuth: true },
      { name: 'sys.license.info', path: '/sys/license/info', roles: ADMIN_ONLY, requiresAuth: true },
    ],
  },
  {
    name: 'vip', path: '/vip', roles: ALL, requiresAuth: true, menuOrder: 20,
    children: [{ name: 'vip.center', path: '/vip/center', roles: ALL, requiresAuth: true }],
  },
  { name: 'license', path: '/license', redirect: '/license/list', roles: ADMIN_ONLY, requiresAuth: true, menuOrder: 77, children: screens('license', '/license', ADMIN_ONLY, ['list', 'create', 'update']) },
  { name: REDIRECT_ROUTE, path: '/redirect/:path', roles: ALL, requiresAuth: true, hidden: true },
] as const satisfies readonly RouteDef[];

/** The names of the leaves of a route (the route itself when it has no children). */
type LeafName<R> = R extends { readonly children: readonly (infer Child)[] } ? LeafName<Child> : R extends { readonly name: infer N extends string } ? N : never;

/** The name of a signed-in screen: every leaf of the table, each of which the web must have a page for. */
export type RouteName = LeafName<(typeof areas)[number]>;

/** A screen route, its name typed. */
export type ScreenRoute = RouteDef<RouteName>;

/** The areas as plain route definitions (their literal types only feed `RouteName`). */
export const appRoutes: readonly RouteDef[] = areas;

export const DEFAULT_LANDING = 'dashboard.workplace' satisfies RouteName;

/** Every screen (leaf) route, areas flattened away. */
export function leafRoutes(routes: readonly RouteDef[] = appRoutes): RouteDef[] {
  return routes.flatMap((r) => (r.children?.length ? leafRoutes(r.children) : [r]));
}

/** The signed-in screens; their names are `RouteName` by that type's definition. */
export const screenRoutes = leafRoutes() as ScreenRoute[];

const screenNames = new Set<string>(screenRoutes.map((r) => r.name));

export function isRouteName(name: string): name is RouteName {
  return screenNames.has(name);
}

export function findRoute(name: string): RouteDef | undefined {
  return [...publicRoutes, ...leafRoutes(), ...appRoutes].find((r) => r.name === name);
}
