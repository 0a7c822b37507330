// Data scope of records owned by an account (docs/SPEC.md §6): a user sees its own, a reseller
// its users' (users.rid = its user_id) and its own, an admin everything.
import { sql, type SelectQueryBuilder, type StringReference } from 'kysely';
import type { Caller } from '../http/crud';
import { invalidField } from '../http/errors';

/** `column` (default `user_id`) names the owning account's user_id. */
export function ownerScope<DB, TB extends keyof DB, O>(q: SelectQueryBuilder<DB, TB, O>, caller: Caller, column: StringReference<DB, TB> = 'user_id' as StringReference<DB, TB>): SelectQueryBuilder<DB, TB, O> {
  const { role, user } = caller.session;
  if (role === 'admin') return q;
  const owner = sql.ref(column as string);
  if (role === 'user') return q.where(sql<boolean>`${owner} = ${user.user_id}`);
  return q.where(sql<boolean>`(${owner} = ${user.user_id} or ${owner} in (select users.user_id from users where users.rid = ${user.user_id}))`);
}

/**
 * The owner of a record the caller creates: a user always owns it; an admin or reseller must name
 * an account it may see (an unknown or foreign one fails the same way, so ids are not probed).
 */
export async function ownerFor(caller: Caller, userId: number | undefined): Promise<number> {
  const { role, user } = caller.session;
  if (role === 'user') {
    if (userId !== undefined && userId !== user.user_id) throw invalidField('user_id', String(userId));
    return user.user_id;
  }
  if (!userId) throw invalidField('user_id', 'required');
  const row = await ownerScope(caller.ctx.db.selectFrom('users').select('users.user_id'), caller, 'users.user_id').where('users.user_id', '=', userId).executeTakeFirst();
  if (!row) throw invalidField('user_id', String(userId));
  return userId;
}
