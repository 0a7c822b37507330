// Picker search (issue 15 part 4): accounts and apps by keyword, PICKER_LIMIT rows at most, inside the
// caller's data scope (owner-scope.ts: a reseller sees itself and its users, a user its own apps).
// `ids` given: exactly those rows the caller may see (labels of values already chosen), keyword ignored.
import type { FastifyInstance } from 'fastify';
import { sql, type SelectQueryBuilder } from 'kysely';
import { ANY_ROLE } from '@fastgate/core/constants';
import { accountPickerSchema, appPickerSchema, PICKER_LIMIT, PICKER_PREFIX, type AccountOption, type AppPickerOption } from '@fastgate/core/entities/picker';
import { callerOf } from '../http/crud';
import { get } from '../http/route';
import { ownerScope } from './owner-scope';

/** Any of `columns` contains the keyword (case-insensitive on both databases), or `idColumn` equals it. */
function matching<DB, TB extends keyof DB, O>(q: SelectQueryBuilder<DB, TB, O>, columns: string[], idColumn: string, keyword: string | undefined) {
  if (!keyword) return q;
  const like = `%${keyword.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const parts = columns.map((c) => sql<boolean>`lower(${sql.ref(c)}) like ${like} escape '\\'`);
  if (/^\d{1,9}$/.test(keyword)) parts.push(sql<boolean>`${sql.ref(idColumn)} = ${Number(keyword)}`);
  return q.where(sql<boolean>`(${sql.join(parts, sql` or `)})`);
}

export async function pickerRoutes(app: FastifyInstance) {
  const db = app.ctx.db;

  get(app, `${PICKER_PREFIX}/account`, { schema: accountPickerSchema, roles: ['admin', 'reseller'] }, async (input, request) => {
    let q = ownerScope(db.selectFrom('users').select(['users.user_id', 'users.role', 'users.account', 'users.name', 'users.email']), callerOf(request), 'users.user_id');
    if (input.role) q = q.where('users.role', '=', input.role);
    if (input.rid) q = q.where('users.rid', '=', input.rid);
    q = input.ids.length ? q.where('users.user_id', 'in', input.ids) : matching(q, ['users.name', 'users.account', 'users.email'], 'users.user_id', input.keyword);
    const items: AccountOption[] = await q.orderBy('users.user_id', 'desc').limit(PICKER_LIMIT).execute();
    return { items };
  });

  get(app, `${PICKER_PREFIX}/app`, { schema: appPickerSchema, roles: [ANY_ROLE] }, async (input, request) => {
    let q = ownerScope(db.selectFrom('apps').select(['apps.app_id', 'apps.user_id', 'apps.name']), callerOf(request), 'apps.user_id');
    if (input.user_id) q = q.where('apps.user_id', '=', input.user_id);
    q = input.ids.length ? q.where('apps.app_id', 'in', input.ids) : matching(q, ['apps.name'], 'apps.app_id', input.keyword);
    const items: AppPickerOption[] = await q.orderBy('apps.app_id', 'desc').limit(PICKER_LIMIT).execute();
    return { items };
  });
}
