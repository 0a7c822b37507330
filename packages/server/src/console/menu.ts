// POST /api/user/menu: the menu the signed-in role may open, from the core route table, when the
// console's menuFromServer setting is on (docs/SPEC.md §2.3 rule 4).
import { canOpen } from '@fastgate/core/access';
import type { ServerMenuItem } from '@fastgate/core/api';
import type { Role } from '@fastgate/core/constants';
import { appRoutes, type RouteDef } from '@fastgate/core/routes';
import { ANY_ROLE } from '@fastgate/core/constants';
import type { FastifyInstance } from 'fastify';
import { post } from '../http/route';
import { sessionOf } from '../http/session';

function menuFor(role: Role, routes: readonly RouteDef[] = appRoutes): ServerMenuItem[] {
  return routes
    .filter((r) => canOpen(role, r))
    .map((r) => {
      const children = r.children ? menuFor(role, r.children) : undefined;
      return children ? { name: r.name, path: r.path, children } : { name: r.name, path: r.path };
    })
    .filter((r) => !r.children || r.children.length > 0);
}

export async function menuRoutes(app: FastifyInstance) {
  post(app, '/user/menu', { roles: [ANY_ROLE] }, (_input, request) => ({ items: menuFor(sessionOf(request).role) }));
}
