// /api/v1/log/<kind>/{page, detail, copy/field, export, batch/operate} for the six log screens
// (docs/ORIGINAL-API.md §1.6, docs/SPEC.md §2.4): rows of a kind are call logs whose model type belongs to it; every verb reads only the
// caller's scope (call-log-query.ts), and the batch verb is the admin's.
import { ANY_ROLE, ErrorCode } from '@fastgate/core/constants';
import {
  LOG_KINDS,
  LOG_KIND_TYPES,
  LOG_STATUSES,
  logBatchSchema,
  logCopyFieldSchema,
  logExportSchema,
  logPageSchema,
  logPath,
  type LogBatchInput,
  type LogKind,
} from '@fastgate/core/entities/call-log';
import { idSchema } from '@fastgate/core/schemas/common';
import type { FastifyInstance } from 'fastify';
import { callerOf, type Caller } from '../http/crud';
import { AppError, businessError, notFound } from '../http/errors';
import { paged } from '../http/paging';
import { get, post } from '../http/route';
import { purgeCallLogs } from '../jobs/call-log-purge';
import { requireStepUp } from '../auth/step-up';
import { exportLogs } from './call-log-export';
import { fieldError, logsMatching, parseTimeRange, scopeLogs } from './call-log-query';
import { ROW_COLUMNS, detailRefs, logDetail, logRow, shieldLists } from './call-log-wire';

const anyone = [ANY_ROLE] as const;
const adminOnly = ['admin'] as const;

export async function callLogRoutes(app: FastifyInstance) {
  const ctx = app.ctx;
  const tz = ctx.config.timeZone;

  // `time` batches run after the answer (docs/ORIGINAL-API.md §1.6); a closing app stops them between batches
  // and waits for the statement in flight before the database goes.
  const purges = new Set<Promise<unknown>>();
  let closing = false;
  app.addHook('onClose', async () => {
    closing = true;
    await Promise.allSettled([...purges]);
  });

  const ofKind = (c: Caller, kind: LogKind) => scopeLogs(ctx.db.selectFrom('call_logs'), c).where('type', 'in', [...LOG_KIND_TYPES[kind]]);

  async function visibleLog(c: Caller, kind: LogKind, id: string) {
    const row = await ofKind(c, kind).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  }

  async function batch(c: Caller, kind: LogKind, input: LogBatchInput): Promise<null> {
    if (input.action === 'delete') {
      await ctx.db.deleteFrom('call_logs').where('id', 'in', input.ids).where('type', 'in', [...LOG_KIND_TYPES[kind]]).execute();
      return null;
    }
    const { from, to } = parseTimeRange(c, input.value, 'value');
    if (from === undefined || to === undefined) throw fieldError(c, 'value', 'log.range_required');
    // All four statuses (or none) = no status filter (docs/ORIGINAL-API.md §1.6).
    const statuses = input.status && input.status.length < LOG_STATUSES.length ? [...new Set(input.status)] : undefined;
    const userId = input.user_id;
    const run = purgeCallLogs(
      ctx,
      (q) => {
        let out = q.where('req_time', '>=', from).where('req_time', '<=', to).where('type', 'in', [...LOG_KIND_TYPES[kind]]);
        if (userId) out = out.where('user_id', '=', userId);
        if (statuses?.length) out = out.where('status', 'in', statuses);
        return out;
      },
      { stopped: () => closing },
    )
      .then((deleted) => ctx.log.info({ kind, deleted }, 'call logs deleted by time'))
      .catch((err: unknown) => ctx.log.error({ err }, 'deleting call logs by time failed'))
      .finally(() => purges.delete(run));
    purges.add(run);
    return null;
  }

  for (const kind of LOG_KINDS) {
    post(app, logPath(kind, 'page'), { schema: logPageSchema, roles: anyone }, async (input, request) => {
      const c = callerOf(request);
      const base = await logsMatching(c, kind, input, parseTimeRange(c, input.req_time));
      return paged(
        input,
        base,
        (q) => q.select(ROW_COLUMNS).orderBy('req_time', 'desc').orderBy('id', 'desc'),
        (row) => logRow(row, c.session.role, tz),
      );
    });

    get(app, logPath(kind, 'detail'), { schema: idSchema, roles: anyone }, async (input, request) => {
      const c = callerOf(request);
      const row = await visibleLog(c, kind, input.id);
      const attempts = await scopeLogs(ctx.db.selectFrom('call_logs'), c).selectAll().where('trace_id', '=', row.trace_id).orderBy('attempt').execute();
      return logDetail(row, attempts, c.session.role, await shieldLists(ctx, c.session.role), tz, await detailRefs(ctx, row, c.session.role));
    });

    // The copy button's reveal (docs/ORIGINAL-API.md §1.6): the app key to whoever may see the log, the provider
    // key to admins only.
    post(app, logPath(kind, 'copy/field'), { schema: logCopyFieldSchema, roles: anyone }, async (input, request) => {
      const c = callerOf(request);
      if (input.field === 'key' && c.session.role !== 'admin') throw new AppError(ErrorCode.Scope, 'log.copy_admin_only');
      // A provider key needs a fresh second factor first (auth/step-up.ts).
      if (input.field === 'key') await requireStepUp(request);
      const row = await visibleLog(c, kind, input.id);
      if (input.field === 'creator') {
        const key = await ctx.db.selectFrom('app_keys').select('key_cipher').where('id', '=', row.app_key_id).executeTakeFirst();
        if (!key) throw businessError('log.app_key_gone');
        return { value: ctx.secrets.decrypt(key.key_cipher) };
      }
      const key = await ctx.db.selectFrom('provider_keys').select('key_cipher').where('id', '=', row.key_id).executeTakeFirst();
      if (!key) throw notFound();
      return { value: ctx.secrets.decrypt(key.key_cipher) };
    });

    post(app, logPath(kind, 'export'), { schema: logExportSchema, roles: anyone }, (input, request, reply) => exportLogs(callerOf(request), kind, input, reply));

    post(app, logPath(kind, 'batch/operate'), { schema: logBatchSchema, roles: adminOnly }, (input, request) => batch(callerOf(request), kind, input));
  }
}
