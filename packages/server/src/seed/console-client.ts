// The seed's way into the console API: the real routes (validation, links, sealed keys, bus events)
// called in-process through Fastify's inject, under a session created for the account and revoked after.
import type { FastifyInstance } from 'fastify';
import { createSession, revokeSession } from '../auth/sessions';
import type { UserRow } from '../db/schema';
import { XSRF_COOKIE, XSRF_HEADER } from '../http/session';

export interface ConsoleClient {
  post<T = unknown>(url: string, body: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function consoleAs(app: FastifyInstance, user: UserRow): Promise<ConsoleClient> {
  const { token } = await createSession(app.ctx, user, '127.0.0.1');
  const xsrf = 'seed';
  return {
    async post<T>(url: string, body: unknown): Promise<T> {
      const res = await app.inject({
        method: 'POST',
        url: `/api/v1${url}`,
        headers: { authorization: `Bearer ${token}`, cookie: `${XSRF_COOKIE}=${xsrf}`, [XSRF_HEADER]: xsrf, 'accept-language': 'en-US' },
        payload: body as object,
      });
      const env = res.json() as { code: number; message: string; data: T };
      if (env.code !== 0) throw new Error(`POST ${url} as ${user.account}: ${env.code} ${env.message}`);
      return env.data;
    },
    close: () => revokeSession(app.ctx, token),
  };
}
