// Deal records (docs/ORIGINAL-API.md §1.5, §3.11) for every role in its scope — a user its own, a reseller its
// users' and its own, an admin all — plus the signed-in account's quota view and notice settings
// (`/dashboard/expense`, `/dashboard/quota/warning`, docs/ORIGINAL-API.md §1.4).
import { ANY_ROLE } from '@fastgate/core/constants';
import { DEAL_RECORD_PAGE, EXPENSE_PATH, QUOTA_WARNING_PATH, dealRecordPageSchema, quotaWarningSchema, userResource, type DealRecord, type Expense } from '@fastgate/core/entities/user';
import { quotaToUsd } from '@fastgate/core/money';
import { flag } from '@fastgate/core/resource';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { publishUsers } from '../billing/deals';
import type { DealRecordRow } from '../db/schema';
import { callerOf, contains, resource } from '../http/crud';
import { get, post } from '../http/route';
import { sessionOf } from '../http/session';
import { formatTime } from '../http/time';
import { ownerScope } from './owner-scope';
import { inTimeRange } from './record-filters';

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

export async function dealRecordRoutes(app: FastifyInstance) {
  const ctx = app.ctx;
  const { db, config } = ctx;

  const deals = resource(ctx, {
    table: 'deal_records',
    scope: (q, c) => ownerScope(q, c),
    page: {
      schema: dealRecordPageSchema,
      filter: (q, f) => {
        let out = contains(q, 'remark', f.remark);
        if (f.user_id) out = out.where('user_id', '=', f.user_id);
        if (f.type) out = out.where('type', '=', f.type);
        if (f.status) out = out.where('status', '=', f.status);
        return inTimeRange(ctx, out, 'created_at', f.created_at);
      },
      order: [['updated_at', 'desc'], ['id', 'desc']],
    },
    toWire: (row: DealRecordRow): DealRecord => ({
      id: row.id,
      user_id: row.user_id,
      rid: row.rid,
      quota: row.quota,
      type: row.type,
      status: row.status,
      remark: row.remark,
      creator: row.creator,
      created_at: formatTime(row.created_at, config.timeZone),
      updated_at: formatTime(row.updated_at, config.timeZone),
    }),
  });

  post(app, DEAL_RECORD_PAGE, { schema: dealRecordPageSchema, roles: [ANY_ROLE] }, (input, request) => deals.page(callerOf(request), input));

  get(app, EXPENSE_PATH, { roles: [ANY_ROLE] }, async (_input, request) => {
    const { user, role } = sessionOf(request);
    const me = await db.selectFrom('users').selectAll().where('user_id', '=', user.user_id).executeTakeFirstOrThrow();
    let allocated = 0;
    if (role === 'reseller') {
      const sum = await db
        .selectFrom('users')
        .select((eb) => eb.fn.sum<number>(sql`quota + used_quota`).as('total'))
        .where('role', '=', 'user')
        .where('rid', '=', me.user_id)
        .executeTakeFirst();
      allocated = Number(sum?.total ?? 0);
    }
    const out: Expense = {
      quota: me.quota,
      quota_usd: round4(quotaToUsd(me.quota)),
      used_quota: me.used_quota,
      used_quota_usd: round4(quotaToUsd(me.used_quota)),
      allocated_quota: allocated,
      to_be_allocated: role === 'reseller' ? me.quota : 0,
      quota_expires_at: formatTime(me.quota_expires_at, config.timeZone),
      quota_warning: flag.decode(me.quota_warning),
      warning_threshold: me.warning_threshold,
      expire_warning_threshold: me.expire_warning_threshold,
    };
    return out;
  });

  // Own settings only; changing a threshold re-arms its notice.
  post(app, QUOTA_WARNING_PATH, { schema: quotaWarningSchema, roles: ['reseller', 'user'] }, async (input, request) => {
    const { user } = sessionOf(request);
    await db
      .updateTable('users')
      .set({
        ...userResource.encodePartial(input),
        warning_notice: 0,
        expire_warning_notice: 0,
        updated_at: Date.now(),
      })
      .where('user_id', '=', user.user_id)
      .execute();
    publishUsers(ctx, [user.user_id]);
  });
}
