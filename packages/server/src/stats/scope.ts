// Data scope of the statistics tables (docs/SPEC.md §6): a user its own rows, a reseller its users' (the rows'
// rid, stamped from the call logs) and its own, an admin all. Reads the rows' own columns, so the
// (user_id, stat_date) and (rid, stat_date) indexes serve every scoped query.
import type { SelectQueryBuilder } from 'kysely';
import type { Session } from '../auth/sessions';
import { invalidField } from '../http/errors';
import { daysBetween, isCalendarDate } from './dates';

type AnyQuery = SelectQueryBuilder<any, any, any>;

export function statScope<Q extends AnyQuery>(q: Q, session: Session, prefix = ''): Q {
  const { role, user } = session;
  if (role === 'admin') return q;
  if (role === 'user') return q.where(`${prefix}user_id`, '=', user.user_id) as Q;
  return q.where((eb) => eb.or([eb(`${prefix}rid`, '=', user.user_id), eb(`${prefix}user_id`, '=', user.user_id)])) as Q;
}

/** A ["YYYY-MM-DD", "YYYY-MM-DD"] range of real dates, in order, at most `maxDays` long; errors name `field`. */
export function checkDateRange(range: readonly string[], maxDays: number, field = 'stat_date'): [string, string] {
  const [from, to] = range as [string, string];
  if (!isCalendarDate(from) || !isCalendarDate(to)) throw invalidField(field, 'YYYY-MM-DD');
  if (to < from) throw invalidField(field, `${from} > ${to}`);
  if (daysBetween(from, to) > maxDays) throw invalidField(field, `≤ ${maxDays} days`);
  return [from, to];
}
