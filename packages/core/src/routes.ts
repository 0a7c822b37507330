// The route table of SPEC §2: the one list the web router, the side menu, the guards and the
// server menu (`POST /api/user/menu`) are all built from.
import { ANY_ROLE, type Role, type RoleOrAny } from './constants';

export interface RouteDef {
  /** Unique name; also the i18n key suffix `menu.<name>` and the value of the guard's redirect query. */
  name: string;
  path: string;
  /** Missing = any signed-in role. */
  roles?: readonly RoleOrAny[];
  /** false only for the public screens (login, admin, reseller, not-found). */
  requiresAuth: boolean;
  /** Position in the side menu (SPEC §2 menu order); areas only. */
  menuOrder?: number;
  /** Hidden from the menu (create, update, detail, redirect screens) but still reachable. */
  hidden?: boolean;
  /** An area path that only redirects to its first screen. */
  redirect?: string;
  children?: readonly RouteDef[];
}

const ADMIN = ['admin'] as const satisfies readonly Role[];
const ADMIN_RESELLER = ['admin', 'reseller'] as const satisfies readonly Role[];
const RESELLER_USER = ['reseller', 'user'] as const satisfies readonly Role[];
const ALL = [ANY_ROLE] as const;

function screens(area: string, base: string, roles: readonly RoleOrAny[], kinds: readonly ('list' | 'create' | 'update' | 'detail')[]): RouteDef[] {
  return kinds.map((kind) => ({
    name: `${area}.${kind}`,
    path: `${base}/${kind}`,
    roles,
    requiresAuth: true,
    hidden: kind !== 'list',
  }));
}

export const publicRoutes = [
  { name: 'login', path: '/login', requiresAuth: false },
  { name: 'admin', path: '/admin', requiresAuth: false },
  { name: 'reseller', path: '/reseller', requiresAuth: false },
] as const satisfies readonly RouteDef[];

export const NOT_FOUND_ROUTE = 'notFound';
export const REDIRECT_ROUTE = 'redirect';
export const DEFAULT_LANDING = 'dashboard.workplace';
export const USER_CENTER = 'user.center';

/** Authenticated areas in SPEC §2 menu order. */
export const appRoutes: readonly RouteDef[] = [
  {
    name: 'dashboard', path: '/dashboard', redirect: '/dashboard/workplace', roles: ALL, requiresAuth: true, menuOrder: 1,
    children: [{ name: 'dashboard.workplace', path: '/dashboard/workplace', roles: ALL, requiresAuth: true }],
  },
  {
    name: 'myModel', path: '/my', roles: RESELLER_USER, requiresAuth: true, menuOrder: 2,
    children: [{ name: 'my.model', path: '/my/model', roles: RESELLER_USER, requiresAuth: true }],
  },
  { name: 'model', path: '/model', redirect: '/model/list', roles: ADMIN, requiresAuth: true, menuOrder: 3, children: screens('model', '/model', ADMIN, ['list', 'create', 'update', 'detail']) },
  {
    name: 'myGroup', path: '/my-group', roles: RESELLER_USER, requiresAuth: true, menuOrder: 3,
    children: [{ name: 'my.group', path: '/my/group', roles: RESELLER_USER, requiresAuth: true }],
  },
  {
    name: 'key', path: '/key', redirect: '/key/list', roles: ALL, requiresAuth: true, menuOrder: 4,
    children: [...screens('key', '/key', ADMIN, ['list']), ...screens('key', '/key', ALL, ['create', 'update'])],
  },
  { name: 'agent', path: '/agent', redirect: '/agent/list', roles: ADMIN, requiresAuth: true, menuOrder: 5, children: screens('agent', '/agent', ADMIN, ['list', 'create', 'update', 'detail']) },
  { name: 'corp', path: '/corp', redirect: '/corp/list', roles: ADMIN, requiresAuth: true, menuOrder: 6, children: screens('corp', '/corp', ADMIN, ['list', 'create', 'update']) },
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
    children: ['audio', 'video', 'videosecondcreation'].map((kind) => ({ name: `task.${kind}`, path: `/task/${kind}`, roles: ALL, requiresAuth: true })),
  },
  {
    name: 'log', path: '/log', redirect: '/log/chat', roles: ALL, requiresAuth: true, menuOrder: 13,
    children: ['chat', 'image', 'audio', 'virtualman', 'audioclone', 'videosecondcreation'].map((kind) => ({ name: `log.${kind}`, path: `/log/${kind}`, roles: ALL, requiresAuth: true })),
  },
  {
    name: 'sys', path: '/sys', roles: ADMIN_RESELLER, requiresAuth: true, menuOrder: 20,
    children: [
      ...screens('sys.reseller', '/sys/reseller', ADMIN, ['list', 'create', 'update', 'detail']),
      ...screens('sys.vip', '/sys/vip', ADMIN_RESELLER, ['list', 'create', 'update']),
      { name: 'sys.site.config', path: '/sys/site/config', roles: ADMIN_RESELLER, requiresAuth: true },
      { name: 'sys.site.create', path: '/sys/site/config/create', roles: ADMIN_RESELLER, requiresAuth: true, hidden: true },
      { name: 'sys.site.update', path: '/sys/site/config/update', roles: ADMIN_RESELLER, requiresAuth: true, hidden: true },
      { name: 'sys.config', path: '/sys/config', roles: ADMIN, requiresAuth: true },
      // Issue 11: the admin reads every row, a reseller its own (the server enforces it).
      { name: 'sys.audit', path: '/sys/audit', roles: ADMIN_RESELLER, requiresAuth: true },
      { name: 'sys.license.info', path: '/sys/license/info', roles: ADMIN, requiresAuth: true },
    ],
  },
  {
    name: 'vip', path: '/vip', roles: ALL, requiresAuth: true, menuOrder: 20,
    children: [{ name: 'vip.center', path: '/vip/center', roles: ALL, requiresAuth: true }],
  },
  { name: 'license', path: '/license', redirect: '/license/list', roles: ADMIN, requiresAuth: true, menuOrder: 77, children: screens('license', '/license', ADMIN, ['list', 'create', 'update']) },
  { name: REDIRECT_ROUTE, path: '/redirect/:path', roles: ALL, requiresAuth: true, hidden: true },
];

/** Every screen (leaf) route, areas flattened away. */
export function leafRoutes(routes: readonly RouteDef[] = appRoutes): RouteDef[] {
  return routes.flatMap((r) => (r.children?.length ? leafRoutes(r.children) : [r]));
}

export function findRoute(name: string): RouteDef | undefined {
  return [...publicRoutes, ...leafRoutes(), ...appRoutes].find((r) => r.name === name);
}
