// Data scope of records owned by an account (SPEC §6, STYLE rule 9): a user sees its own, a reseller
// its users' (users.rid = its user_id) and its own, an admin everything.
import type { SelectQueryBuilder } from 'kysely';
import type { Caller } from '../http/crud';
import { invalidField } from '../http/errors';

type AnyQuery = SelectQueryBuilder<any, any, any>;

export function ownerScope(q: AnyQuery, caller: Caller, column = 'user_id'): AnyQuery {
  const { role, user } = caller.session;
  if (role === 'admin') return q;
  if (role === 'user') return q.where(column, '=', user.user_id);
  return q.where((eb) => eb.or([eb(column, '=', user.user_id), eb(column, 'in', eb.selectFrom('users').select('users.user_id').where('users.rid', '=', user.user_id))]));
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
