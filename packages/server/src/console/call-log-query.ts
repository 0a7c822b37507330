// Which call logs a caller may read and which a log filter keeps (docs/ORIGINAL-API.md §1.6, docs/SPEC.md §6). Every
// condition is written so the (user_id[, model]|rid|app_id|model, req_time) and (req_time) indexes serve
// it: the scope and the equality filters lead, the request-time range closes the index range.
import { t, type MessageKey } from '@fastgate/core/messages';
import { LOG_KIND_TYPES, LogStatus, type LogFilter, type LogKind } from '@fastgate/core/entities/call-log';
import { ErrorCode } from '@fastgate/core/constants';
import type { SelectQueryBuilder } from 'kysely';
import type { Database } from '../db/schema';
import { contains, type Caller } from '../http/crud';
import { AppError } from '../http/errors';
import { formatTime, parseWireTime } from '../http/time';
import { hashKey } from '../security/api-keys';

export type LogQuery<O = object> = SelectQueryBuilder<Database, 'call_logs', O>;

/** Epoch-ms bounds of `req_time`, both inclusive; undefined = open. */
export interface TimeBounds {
  from?: number;
  to?: number;
}

const DAY_MS = 86_400_000;

/** A validation error naming `field`, its detail in the caller's locale. */
export function fieldError(c: Caller, field: string, key: MessageKey, vars: Record<string, string | number> = {}): AppError {
  return new AppError(ErrorCode.Validation, 'common.invalid_field', { field, detail: t(key, c.locale, vars) });
}

/**
 * A `["YYYY-MM-DD HH:mm:ss", "…"]` range ("" = open end; a bare date = the whole day). Anything that is
 * not a real calendar time, or a start after the end, fails naming the field. An end given to the
 * second includes that whole second.
 */
export function parseTimeRange(c: Caller, range: readonly string[] | undefined, field = 'req_time'): TimeBounds {
  if (!range) return {};
  const tz = c.ctx.config.timeZone;
  const [from, to] = range.map((text, i) => {
    const s = text.trim();
    if (!s) return undefined;
    const ms = parseWireTime(s, tz, i === 1);
    // parseWireTime normalises "2031-13-45"; a real time formats back to what was sent.
    const back = ms === undefined ? '' : formatTime(i === 1 && s.length === 10 ? ms - DAY_MS + 1 : ms, tz);
    const full = s.length === 10 ? `${s} 00:00:00` : s.length === 16 ? `${s}:00` : s.replace('T', ' ');
    if (ms === undefined || back !== full) throw fieldError(c, field, 'log.time_format');
    return i === 1 && s.length > 10 ? ms + 999 : ms;
  });
  if (from !== undefined && to !== undefined && from > to) throw fieldError(c, field, 'log.time_order');
  return { from, to };
}

/** Refuses a range longer than `maxDays` (an open start counts as unbounded only when allowed). */
export function checkSpan(c: Caller, bounds: TimeBounds, maxDays: number, field = 'req_time'): void {
  if (bounds.from === undefined) return;
  const to = bounds.to ?? Date.now();
  if (to - bounds.from > maxDays * DAY_MS) throw fieldError(c, field, 'log.range_too_long', { days: maxDays });
}

/**
 * The caller's rows: a user its own, a reseller its users' (rid) and its own, an admin all. A
 * `user_id` filter narrows the scope to one equality so the (user_id, req_time) index serves it; a
 * foreign user id simply matches nothing.
 */
export function scopeLogs<O>(q: LogQuery<O>, c: Caller, userId?: number): LogQuery<O> {
  const { role, user } = c.session;
  if (userId) q = q.where('user_id', '=', userId);
  if (role === 'user') return q.where('user_id', '=', user.user_id);
  if (role === 'reseller') {
    if (userId === user.user_id) return q;
    if (userId) return q.where('rid', '=', user.user_id);
    return q.where((eb) => eb.or([eb('rid', '=', user.user_id), eb('user_id', '=', user.user_id)]));
  }
  return q;
}

/**
 * Rows of `kind` in the caller's scope matching the filter (all but its request-time range, which the
 * caller turns into `time`: the page and export take the filter's, the live rates a moving window).
 */
export async function logsMatching(c: Caller, kind: LogKind, f: LogFilter, time: TimeBounds): Promise<LogQuery> {
  let q: LogQuery = scopeLogs(c.ctx.db.selectFrom('call_logs'), c, f.user_id);
  q = q.where('type', 'in', [...LOG_KIND_TYPES[kind]]);
  if (f.trace_id) q = q.where('trace_id', '=', f.trace_id);
  if (f.app_id) q = q.where('app_id', '=', f.app_id);
  // With a user, (user_id, model, req_time) answers this; without, (model, req_time).
  if (f.models?.length) q = q.where('model', 'in', f.models);
  if (f.model_agents?.length && c.session.role === 'admin') q = q.where('model_agent_id', 'in', f.model_agents);
  if (f.total_time !== undefined && f.total_time > 0) q = q.where('total_time', '>=', f.total_time);
  if (f.status === LogStatus.Abnormal) q = q.where('status', '<>', LogStatus.Success);
  else if (f.status !== undefined) q = q.where('status', '=', f.status);
  if (f.key) {
    // A whole app key matches its rows exactly (found by hash, never by plaintext); a fragment
    // matches the masked form the lists show.
    const appKey = await c.ctx.db.selectFrom('app_keys').select('id').where('key_hash', '=', hashKey(f.key)).executeTakeFirst();
    q = appKey ? q.where('app_key_id', '=', appKey.id) : (contains(q, 'creator', f.key) as LogQuery);
  }
  if (time.from !== undefined) q = q.where('req_time', '>=', time.from);
  if (time.to !== undefined) q = q.where('req_time', '<=', time.to);
  return q;
}
