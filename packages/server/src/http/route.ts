// Thin route declarations for the console: parse with a core schema, call one function, wrap in the envelope.
import type { RoleOrAny } from '@fastgate/core/constants';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ok } from './envelope';
import { requestLocale } from './locale';
import { parse } from './validate';

interface RouteOpts<S extends z.ZodType> {
  schema?: S;
  roles?: readonly RoleOrAny[];
  public?: boolean;
}

type Handler<S extends z.ZodType> = (input: z.infer<S>, request: FastifyRequest, reply: FastifyReply) => Promise<unknown> | unknown;

function define(method: 'GET' | 'POST') {
  return <S extends z.ZodType>(app: FastifyInstance, url: string, opts: RouteOpts<S>, handler: Handler<S>) => {
    app.route({
      method,
      url,
      config: { roles: opts.roles, public: opts.public },
      handler: async (request, reply) => {
        const raw = method === 'GET' ? request.query : request.body;
        const input = opts.schema ? parse(opts.schema, raw, requestLocale(request)) : (raw as z.infer<S>);
        return ok((await handler(input, request, reply)) ?? null);
      },
    });
  };
}

export const post = define('POST');
export const get = define('GET');
