// Thin route declarations for the console: parse with a core schema, call one function, wrap in the envelope.
import type { RoleOrAny } from '@fastgate/core/constants';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { beginAudit, defaultAuditFlag, finishAudit, type AuditFlag } from '../audit/record';
import { ok } from './envelope';
import { requestLocale } from './locale';
import { parse } from './validate';

/**
 * Every route says who may call it: a role list (['*'] = any signed-in role) or `public: true`.
 * `audit` says what an admin's or reseller's successful call records (audit/record.ts); without it the
 * URL's verb decides (a POST writes unless it ends in /page, /list, /detail…), so a new POST is
 * recorded unless it says `audit: false`.
 */
type RouteOpts<S extends z.ZodType> = { schema?: S; audit?: AuditFlag } & ({ roles: readonly RoleOrAny[]; public?: false } | { public: true; roles?: undefined });

type Handler<S extends z.ZodType> = (input: z.infer<S>, request: FastifyRequest, reply: FastifyReply) => Promise<unknown> | unknown;

function define(method: 'GET' | 'POST') {
  return <S extends z.ZodType>(app: FastifyInstance, url: string, opts: RouteOpts<S>, handler: Handler<S>) => {
    const audit = opts.audit ?? defaultAuditFlag(method, url);
    app.route({
      method,
      url,
      config: { roles: opts.roles, public: opts.public, inputSchema: opts.schema, audit },
      handler: async (request, reply) => {
        const raw = method === 'GET' ? request.query : request.body;
        const input = opts.schema ? parse(opts.schema, raw, requestLocale(request)) : (raw as z.infer<S>);
        const draft = beginAudit(request, audit);
        let out: unknown;
        try {
          out = await handler(input, request, reply);
        } finally {
          // Read-your-writes: whatever the call changed is applied to this instance's gateway before it
          // answers (bus/index.ts), however its writes published (awaited or not), and even if it failed.
          await request.server.ctx.bus.settled();
        }
        if (draft) await finishAudit(request, draft, input);
        // A handler that answered by itself (a file download) returns the reply; errors before that
        // still reach the scope's envelope handler. Resolving with undefined tells Fastify not to send
        // again (resolving with the reply would make it try, and log FST_ERR_REP_ALREADY_SENT).
        return out === reply ? undefined : ok(out ?? null);
      },
    });
  };
}

export const post = define('POST');
export const get = define('GET');
