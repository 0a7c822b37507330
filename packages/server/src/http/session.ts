// Console authentication: session hook, role guard and the XSRF check (docs/SPEC.md §6, §7).
import { ANY_ROLE, type RoleOrAny } from '@fastgate/core/constants';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { resolveSession, type Session } from '../auth/sessions';
import { AppError, unauthorized } from './errors';
import { ErrorCode } from '@fastgate/core/constants';

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
  }
  interface FastifyContextConfig {
    /** Roles that may call the route (['*'] = any signed-in role); absent = nobody (fail closed). */
    roles?: readonly RoleOrAny[];
    /** No session needed (auth, common, open). */
    public?: boolean;
  }
}

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';

/** The session token: from the Authorization header only. A token in the URL would leak through
 * Referer headers, browser history and proxy logs. */
export function bearerToken(request: FastifyRequest): string {
  const auth = request.headers.authorization ?? '';
  return auth.toLowerCase().startsWith('bearer ') ? auth.slice(7).trim() : '';
}

export function registerSessionAuth(app: FastifyInstance): void {
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (request: FastifyRequest, _reply: FastifyReply) => {
    const cfg = request.routeOptions.config;
    if (cfg.public || !request.routeOptions.url) return;
    const session = await resolveSession(app.ctx, bearerToken(request));
    if (!session) throw unauthorized();
    const roles = cfg.roles;
    // Fail closed: a route that names no roles is open to nobody.
    if (!roles || (!roles.includes(ANY_ROLE) && !roles.includes(session.role))) throw unauthorized();
    // Signed-in state changes must carry the XSRF cookie's value in the header.
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const cookie = request.cookies[XSRF_COOKIE];
      const header = request.headers[XSRF_HEADER];
      if (!cookie || cookie !== header) throw new AppError(ErrorCode.Forbidden, 'common.xsrf', {}, 403);
    }
    request.session = session;
  });
}

/** The session of a route that requires one (set by the hook above). */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.session) throw unauthorized();
  return request.session;
}
