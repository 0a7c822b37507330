// Every console route as registered (method, full URL, roles, input schema): one list that the OpenAPI
// document and the authorisation-matrix test both read, so neither can drift from what is served.
import type { RoleOrAny } from '@fastgate/core/constants';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { AuditFlag } from '../audit/record';

export interface RouteInfo {
  method: string;
  url: string;
  roles?: readonly RoleOrAny[];
  public?: boolean;
  schema?: z.ZodType;
  /** What a successful admin/reseller call records in the audit log (false: nothing, it only reads). */
  audit?: AuditFlag;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Console routes in registration order (filled by `collectRoutes`). */
    consoleRoutes: RouteInfo[];
  }
  interface FastifyContextConfig {
    /** The zod schema the route parses its input with (http/route.ts). */
    inputSchema?: z.ZodType;
    /** The route's audit flag (http/route.ts). */
    audit?: AuditFlag;
  }
}

/** The root app's list (its decoration is shared by reference with every scope below it). */
export function decorateRouteList(root: FastifyInstance): void {
  root.decorate('consoleRoutes', []);
}

/** Records every route added in `scope` and below it. */
export function collectRoutes(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    const cfg = (route.config ?? {}) as { roles?: readonly RoleOrAny[]; public?: boolean; inputSchema?: z.ZodType; audit?: AuditFlag };
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      scope.consoleRoutes.push({ method, url: route.url, roles: cfg.roles, public: cfg.public, schema: cfg.inputSchema, audit: cfg.audit });
    }
  });
}
