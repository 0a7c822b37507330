// Route access rules of docs/SPEC.md §2.3 (guard rule 3) and §6: one pure function for guards, menu and buttons.
import { ANY_ROLE, type Role, type RoleOrAny } from './constants';
import { leafRoutes, type RouteDef } from './routes';

/** Allowed if the route needs no auth, has no roles list, lists the wildcard, or lists the role. */
export function canOpen(role: Role | undefined, route: Pick<RouteDef, 'requiresAuth' | 'roles'>): boolean {
  if (!route.requiresAuth) return true;
  if (!route.roles || route.roles.length === 0) return true;
  if (route.roles.includes(ANY_ROLE)) return true;
  return role !== undefined && route.roles.includes(role);
}

/** `v-permission` of docs/SPEC.md §5: a role list is required; an element shows only for the listed roles. */
export const PERMISSION_ROLES_ERROR = `need roles! Like v-permission="['admin','user']"`;
export function hasPermission(role: Role | undefined, roles: readonly RoleOrAny[] | unknown): boolean {
  if (!Array.isArray(roles) || roles.length === 0) throw new Error(PERMISSION_ROLES_ERROR);
  return canOpen(role, { requiresAuth: true, roles: roles as RoleOrAny[] });
}

/**
 * The first visible screen the role may open, among those `available` (the web passes the routes that
 * have a page), in menu order. Used when a guard refuses a route.
 */
export function firstOpenRoute(role: Role | undefined, available?: (name: string) => boolean): RouteDef | undefined {
  return leafRoutes().find((r) => !r.hidden && canOpen(role, r) && (available ? available(r.name) : true));
}
