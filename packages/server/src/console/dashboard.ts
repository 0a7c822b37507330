// Dashboard workplace (docs/ORIGINAL-API.md §1.4): base-data cards, the call trend, Top 10 rankings and the model
// share. Scoped by role (user: own; reseller: its users' and its own; admin: all) and read from the
// daily statistics and entity counts only — never from the call logs. `/dashboard/expense` and
// `/dashboard/quota/warning` live in deal-record.ts, the live rates in live-rates.ts.
import { ANY_ROLE } from '@fastgate/core/constants';
import {
  DASHBOARD_BASE_DATA,
  DASHBOARD_CALL_DATA,
  DASHBOARD_MARGIN,
  DASHBOARD_MODEL_PERCENT,
  DASHBOARD_TOP,
  daysParamSchema,
  topQuerySchema,
  type BaseData,
  type Margin,
  type ModelPercent,
  type TopItem,
  type TopType,
  type TrendPoint,
} from '@fastgate/core/entities/dashboard';
import { bpToFraction } from '@fastgate/core/entities/group';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type AliasedExpression, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Session } from '../auth/sessions';
import { availableGroups, availableModelIds } from '../catalogue/access';
import type { Ctx } from '../context';
import { callerOf, type Caller } from '../http/crud';
import { invalidField } from '../http/errors';
import { requestLocale } from '../http/locale';
import { get } from '../http/route';
import { sessionOf } from '../http/session';
import { parse } from '../http/validate';
import { lastDays, startOfToday } from '../stats/dates';
import { statScope } from '../stats/scope';
import { ownerScope } from './owner-scope';

const TOP_N = 10;
/** Sums come back as numeric text from PostgreSQL. */
const num = (v: unknown) => Number(v ?? 0);

export async function dashboardRoutes(app: FastifyInstance) {
  const ctx = app.ctx;
  const daysOf = (request: FastifyRequest) => parse(daysParamSchema, request.params, requestLocale(request)).days;

  get(app, DASHBOARD_BASE_DATA, { roles: [ANY_ROLE] }, (_input, request) => baseData(callerOf(request)));
  get(app, DASHBOARD_CALL_DATA, { roles: [ANY_ROLE] }, async (_input, request) => ({ items: await trend(ctx, sessionOf(request), daysOf(request)) }));
  get(app, DASHBOARD_MODEL_PERCENT, { roles: [ANY_ROLE] }, (_input, request) => modelPercent(ctx, sessionOf(request), daysOf(request)));
  get(app, DASHBOARD_MARGIN, { roles: ['reseller'] }, (_input, request) => margin(ctx, sessionOf(request), daysOf(request)));
  get(app, DASHBOARD_TOP, { schema: topQuerySchema, roles: [ANY_ROLE] }, async (input, request) => {
    const session = sessionOf(request);
    // App keys are ranked for their owner only (docs/ORIGINAL-API.md §1.4).
    if (input.data_type === 'app_key' && session.role !== 'user') throw invalidField('data_type', 'user | app | model');
    return { items: await withNames(callerOf(request), input.data_type, await top(ctx, session, input.days, input.data_type)) };
  });
}

async function count(q: SelectQueryBuilder<any, any, any>): Promise<number> {
  const row = (await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()) as { n: unknown };
  return num(row.n);
}

/** Resolves every value of `parts` at once (PostgreSQL runs them on several connections). */
async function all<T extends Record<string, Promise<number>>>(parts: T): Promise<{ [K in keyof T]: number }> {
  const values = await Promise.all(Object.values(parts));
  return Object.fromEntries(Object.keys(parts).map((k, i) => [k, values[i]])) as { [K in keyof T]: number };
}

async function baseData(caller: Caller): Promise<BaseData> {
  const { ctx, session } = caller;
  const { db } = ctx;
  const { role, user } = session;
  const today = startOfToday(ctx.config.timeZone);
  const apps = () => ownerScope(db.selectFrom('apps'), caller);
  const common = {
    app: count(apps()),
    today_app: count(apps().where('created_at', '>=', today)),
    app_key: count(ownerScope(db.selectFrom('app_keys'), caller)),
    // All time, from the daily statistics.
    call: statScope(db.selectFrom('stat_user_day'), session)
      .select((eb) => eb.fn.sum('total').as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => num(r.n)),
  };
  if (role === 'admin') {
    const users = () => db.selectFrom('users').where('role', '=', 'user');
    return all({
      ...common,
      model: count(db.selectFrom('models')),
      model_key: count(db.selectFrom('provider_keys')),
      user: count(users()),
      today_user: count(users().where('created_at', '>=', today)),
      group: count(db.selectFrom('groups')),
    });
  }
  const model = availableModelIds(ctx, user).then((ids) => ids.size);
  if (role === 'reseller') {
    const users = () => db.selectFrom('users').where('role', '=', 'user').where('rid', '=', user.user_id);
    return all({
      ...common,
      model,
      user: count(users()),
      today_user: count(users().where('created_at', '>=', today)),
      group: count(db.selectFrom('groups').where('user_id', '=', user.user_id)),
    });
  }
  return all({ ...common, model, group: availableGroups(ctx, user).then((g) => g.length) });
}

/** [first, last] stat dates of a `days` window ending today. */
function windowOf(ctx: Ctx, days: number): { dates: string[]; from: string; to: string } {
  const dates = lastDays(days, ctx.config.timeZone);
  return { dates, from: dates[0]!, to: dates[dates.length - 1]! };
}

async function trend(ctx: Ctx, session: Session, days: number): Promise<TrendPoint[]> {
  const { db } = ctx;
  const { dates, from, to } = windowOf(ctx, days);
  const [users, apps] = await Promise.all([
    statScope(db.selectFrom('stat_user_day'), session)
      .where('stat_date', '>=', from)
      .where('stat_date', '<=', to)
      .select((eb) => [
        'stat_date',
        eb.fn.sum('spend').as('spend'),
        eb.fn.sum('total').as('call'),
        eb.fn.sum('tokens').as('tokens'),
        eb.fn.sum('abnormal').as('abnormal'),
        // One row per user and day: the day's distinct users.
        eb.fn.countAll().as('user'),
      ])
      .groupBy('stat_date')
      .execute(),
    statScope(db.selectFrom('stat_app_day'), session)
      .where('stat_date', '>=', from)
      .where('stat_date', '<=', to)
      .select((eb) => ['stat_date', eb.fn.countAll().as('app')])
      .groupBy('stat_date')
      .execute(),
  ]);
  const byDate = new Map(users.map((r) => [r.stat_date, r]));
  const appsByDate = new Map(apps.map((r) => [r.stat_date, num(r.app)]));
  return dates.map((date) => {
    const r = byDate.get(date);
    return {
      date: date.slice(5),
      spend: num(r?.spend),
      call: num(r?.call),
      tokens: num(r?.tokens),
      user: num(r?.user),
      app: appsByDate.get(date) ?? 0,
      abnormal: num(r?.abnormal),
    };
  });
}

/**
 * A reseller's margin per day: its users' spend against what it cost at the floor each call was priced
 * under (stat_user_day.floor_spend, by the rows' rid; the reseller's own calls are not its users').
 */
async function margin(ctx: Ctx, session: Session, days: number): Promise<Margin> {
  const { dates, from, to } = windowOf(ctx, days);
  const rows = await ctx.db
    .selectFrom('stat_user_day')
    .where('rid', '=', session.user.user_id)
    .where('stat_date', '>=', from)
    .where('stat_date', '<=', to)
    .select((eb) => ['stat_date', eb.fn.sum('spend').as('spend'), eb.fn.sum('floor_spend').as('floor_spend')])
    .groupBy('stat_date')
    .execute();
  const byDate = new Map(rows.map((r) => [r.stat_date, r]));
  const items = dates.map((date) => {
    const r = byDate.get(date);
    const spend = num(r?.spend);
    const floorSpend = num(r?.floor_spend);
    return { date: date.slice(5), spend, floor_spend: floorSpend, margin: spend - floorSpend };
  });
  const spend = items.reduce((n, i) => n + i.spend, 0);
  const floorSpend = items.reduce((n, i) => n + i.floor_spend, 0);
  return { floor: bpToFraction(session.user.floor_bp), spend, floor_spend: floorSpend, margin: spend - floorSpend, items };
}

type AnyQuery = SelectQueryBuilder<any, any, any>;
type Row = Record<string, unknown>;

/** Top N of `q` grouped by `by`, ranked by spend, with the summed measures and `extra` columns. */
function ranked(q: AnyQuery, by: string, extra: (eb: ExpressionBuilder<any, any>) => AliasedExpression<unknown, string>[] = () => []): Promise<Row[]> {
  return q
    .select((eb) => [by, eb.fn.sum('total').as('call'), eb.fn.sum('tokens').as('tokens'), eb.fn.sum('spend').as('spend'), eb.fn.sum('abnormal').as('abnormal'), ...extra(eb)])
    .groupBy(by)
    .orderBy(sql`sum(spend)`, 'desc')
    .orderBy(by)
    .limit(TOP_N)
    .execute();
}

const measures = (r: Row) => ({ call: num(r.call), tokens: num(r.tokens), spend: num(r.spend), abnormal: num(r.abnormal) });

async function top(ctx: Ctx, session: Session, days: number, type: TopType): Promise<TopItem[]> {
  const { db } = ctx;
  const { from, to } = windowOf(ctx, days);
  const inWindow = (table: 'stat_user_day' | 'stat_app_day' | 'stat_app_key_day') =>
    statScope(db.selectFrom(table) as AnyQuery, session).where('stat_date', '>=', from).where('stat_date', '<=', to);

  if (type === 'app') {
    const rows = await ranked(inWindow('stat_app_day'), 'app_id', (eb) => [eb.fn.max('user_id').as('user_id')]);
    return rows.map((r) => ({ user_id: num(r.user_id), app_id: num(r.app_id), ...measures(r) }));
  }
  if (type === 'app_key') {
    const rows = await ranked(inWindow('stat_app_key_day'), 'app_key_id', (eb) => [eb.fn.max('user_id').as('user_id'), eb.fn.max('app_id').as('app_id'), eb.fn.max('creator').as('app_key')]);
    return rows.map((r) => ({ user_id: num(r.user_id), app_id: num(r.app_id), app_key: String(r.app_key), ...measures(r) }));
  }
  if (type === 'model') {
    if (session.role === 'admin') return topModelsOfAll(ctx, from, to);
    // Per (model, user) first, then per model: distinct users come out of a hash aggregate, which
    // is several times cheaper than count(distinct) on both databases.
    const perUser = (db as unknown as Kysely<any>)
      .selectFrom(userModelDays(ctx, session, from, to).as('d'))
      .select((eb) => ['model', 'user_id', eb.fn.sum('total').as('total'), eb.fn.sum('tokens').as('tokens'), eb.fn.sum('spend').as('spend'), eb.fn.sum('abnormal').as('abnormal')])
      .groupBy(['model', 'user_id']);
    const rows = await ranked((db as unknown as Kysely<any>).selectFrom(perUser.as('x')), 'model', (eb) => [eb.fn.countAll().as('user')]);
    return rows.map((r) => ({ model: String(r.model), user: num(r.user), ...measures(r) }));
  }
  const rows = await ranked(inWindow('stat_user_day'), 'user_id');
  const items: TopItem[] = rows.map((r) => ({ user_id: num(r.user_id), ...measures(r) }));
  if (items.length) {
    // Distinct models over the window (a day's `models` cannot be summed across days).
    const models = await db
      .selectFrom('stat_user_model_day')
      .select(['user_id', sql<number>`count(distinct model)`.as('n')])
      .where('user_id', 'in', items.map((i) => i.user_id!))
      .where('stat_date', '>=', from)
      .where('stat_date', '<=', to)
      .groupBy('user_id')
      .execute();
    const byUser = new Map(models.map((m) => [m.user_id, num(m.n)]));
    for (const i of items) i.models = byUser.get(i.user_id!) ?? 0;
  }
  return items;
}

/**
 * The names of ranked users and apps (an app key's: its app's), looked up through the caller's owner
 * scope: a ranking row of a user who has since moved to another reseller keeps its figures but shows no name.
 */
async function withNames(caller: Caller, type: TopType, items: TopItem[]): Promise<TopItem[]> {
  const { db } = caller.ctx;
  if (type === 'user') {
    const ids = items.map((i) => i.user_id!);
    if (!ids.length) return items;
    const rows = await ownerScope(db.selectFrom('users').select(['users.user_id', 'users.name', 'users.account']), caller, 'users.user_id').where('users.user_id', 'in', ids).execute();
    const names = new Map(rows.map((r) => [r.user_id, r.name || r.account]));
    return items.map((i) => ({ ...i, name: names.get(i.user_id!) }));
  }
  if (type === 'app' || type === 'app_key') {
    const ids = [...new Set(items.map((i) => i.app_id!))];
    if (!ids.length) return items;
    const rows = await ownerScope(db.selectFrom('apps').select(['apps.app_id', 'apps.name']), caller, 'apps.user_id').where('apps.app_id', 'in', ids).execute();
    const names = new Map(rows.map((r) => [r.app_id, r.name]));
    return items.map((i) => ({ ...i, name: names.get(i.app_id!) }));
  }
  return items;
}

/**
 * The caller's (user, model, day) rows of the window: a reseller's are its users' (rid) and its own, read
 * as two disjoint parts so each is one index range. Under `rid = ? OR user_id = ?` both databases fetch
 * every row from the table (SQLite's multi-index OR, PostgreSQL's BitmapOr) where the first part is
 * answered from the (rid, stat_date, model, user_id, measures) index alone: at 10M call logs a
 * reseller's 30-day model ranking took 60 / 98 ms (SQLite p50 / p95; docs/BENCHMARKS.md).
 */
function userModelDays(ctx: Ctx, session: Session, from: string, to: string): AnyQuery {
  const days = () =>
    (ctx.db as unknown as Kysely<any>)
      .selectFrom('stat_user_model_day')
      .select(['model', 'user_id', 'total', 'tokens', 'spend', 'abnormal'])
      .where('stat_date', '>=', from)
      .where('stat_date', '<=', to);
  if (session.role !== 'reseller') return statScope(days(), session);
  const id = session.user.user_id;
  return days().where('rid', '=', id).unionAll(days().where('user_id', '=', id).where('rid', '<>', id));
}

/**
 * The admin's model ranking: the sums from stat_model_day (~30 rows a day), then the distinct users of
 * the ten ranked models from stat_model_user (each (model, user)'s latest day): a user called the model
 * in the window iff that day is in it, or is later (future-dated rows; rare) and one of its daily rows
 * is in it. Grouping the window's (model, user, day) rows instead read ~all of them: 50 / 95 ms (SQLite
 * p50 / p95) and 85 / 89 ms (PostgreSQL) at 10M call logs over 30 days (docs/BENCHMARKS.md).
 */
async function topModelsOfAll(ctx: Ctx, from: string, to: string): Promise<TopItem[]> {
  const { db } = ctx;
  const rows = await ranked(db.selectFrom('stat_model_day').where('stat_date', '>=', from).where('stat_date', '<=', to) as AnyQuery, 'model');
  if (!rows.length) return [];
  const models = rows.map((r) => String(r.model));
  const pairs = db.selectFrom('stat_model_user as m').select(['m.model', 'm.user_id']).where('m.model', 'in', models);
  const inWindow = pairs.where('m.last_date', '>=', from).where('m.last_date', '<=', to);
  const later = pairs
    .where('m.last_date', '>', to)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('stat_user_model_day as d')
          .select('d.user_id')
          .whereRef('d.user_id', '=', 'm.user_id')
          .whereRef('d.model', '=', 'm.model')
          .where('d.stat_date', '>=', from)
          .where('d.stat_date', '<=', to),
      ),
    );
  const users = await db
    .selectFrom(inWindow.unionAll(later).as('x'))
    .select((eb) => ['x.model', eb.fn.countAll().as('n')])
    .groupBy('x.model')
    .execute();
  const byModel = new Map(users.map((u) => [u.model, num(u.n)]));
  return rows.map((r) => ({ model: String(r.model), user: byModel.get(String(r.model)) ?? 0, ...measures(r) }));
}

async function modelPercent(ctx: Ctx, session: Session, days: number): Promise<ModelPercent> {
  const { from, to } = windowOf(ctx, days);
  // The admin's share comes from the per-model table, a reseller's and a user's from their own daily rows.
  const source =
    session.role === 'admin'
      ? (ctx.db.selectFrom('stat_model_day').where('stat_date', '>=', from).where('stat_date', '<=', to) as AnyQuery)
      : (ctx.db as unknown as Kysely<any>).selectFrom(userModelDays(ctx, session, from, to).as('d'));
  const rows = await source
    .select((eb) => ['model', eb.fn.sum('total').as('value')])
    .groupBy('model')
    .having(sql`sum(total)`, '>', 0)
    .orderBy(sql`sum(total)`, 'desc')
    .orderBy('model')
    .execute();
  const items = rows.map((r) => ({ name: String(r.model), value: num(r.value) }));
  return { models: items.map((i) => i.name), items };
}
