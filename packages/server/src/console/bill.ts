// Bills (docs/ORIGINAL-API.md §1.5, §3.12; docs/SPEC.md §3.10 Bill): the daily per-user statistics the statistics job builds
// (jobs/statistics.ts), scoped by role — a user its own, a reseller its users' and its own, an admin
// all. The export has one row per user, day and model.
import { ANY_ROLE, type Locale } from '@fastgate/core/constants';
import { BILL_DETAIL, BILL_EXPORT, BILL_MAX_DAYS, BILL_PAGE, billDetailSchema, billExportSchema, billPageSchema, type Bill, type BillDetail, type ModelStat } from '@fastgate/core/entities/finance';
import { t } from '@fastgate/core/messages';
import { quotaToUsd } from '@fastgate/core/money';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { Session } from '../auth/sessions';
import type { Ctx } from '../context';
import type { StatUserDayTable } from '../db/schema';
import { callerOf, resource, type Caller } from '../http/crud';
import { invalidField } from '../http/errors';
import { get, post } from '../http/route';
import { formatTime } from '../http/time';
import { sendXlsx, type XlsxColumn } from '../http/xlsx';
import { addDays } from '../stats/dates';
import { checkDateRange, statScope } from '../stats/scope';

/** The file name the original console saves bill exports under (docs/ORIGINAL-API.md §2.9). */
const BILL_EXPORT_FILE = '账单明细.xlsx';
/** Bills per export query: memory stays flat however long the range. */
const EXPORT_BATCH = 500;

type BillRow = Selectable<StatUserDayTable>;
type BillKey = Pick<BillRow, 'user_id' | 'stat_date'>;

/** Stored day figures (quota units, token counts) → the wire's, in the original console's meaning (core entities/finance.ts). */
function measures(row: Pick<BillRow, 'total' | 'tokens' | 'spend' | 'abnormal' | 'abnormal_spend'>): Omit<ModelStat, 'model'> {
  return {
    total: row.total,
    tokens: Number(row.spend),
    token_count: Number(row.tokens),
    spend: quotaToUsd(Number(row.spend)),
    abnormal: row.abnormal,
    abnormal_tokens: Number(row.abnormal_spend),
    abnormal_spend: quotaToUsd(Number(row.abnormal_spend)),
  };
}

export async function billRoutes(app: FastifyInstance) {
  const ctx = app.ctx;
  const { db, config } = ctx;

  const modelStats = async (keys: readonly BillKey[]) => {
    const out = new Map<string, ModelStat[]>();
    const byDate = new Map<string, number[]>();
    for (const k of keys) {
      const users = byDate.get(k.stat_date);
      if (users) users.push(k.user_id);
      else byDate.set(k.stat_date, [k.user_id]);
    }
    for (const [date, users] of byDate) {
      const rows = await db
        .selectFrom('stat_user_model_day')
        .select(['user_id', 'stat_date', 'model', 'total', 'tokens', 'spend', 'abnormal', 'abnormal_spend'])
        .where('stat_date', '=', date)
        .where('user_id', 'in', users)
        .orderBy('spend', 'desc')
        .orderBy('model')
        .execute();
      for (const { user_id, stat_date, model, ...stat } of rows) {
        const k = `${user_id}|${stat_date}`;
        const wire = { model, ...measures(stat) };
        const stats = out.get(k);
        if (stats) stats.push(wire);
        else out.set(k, [wire]);
      }
    }
    return out;
  };

  // A reseller's margin is its own business: shown to it (on its users' rows) and to admins, never to users.
  const marginOf = (row: BillRow, c: Caller) =>
    row.rid > 0 && (c.session.role === 'admin' || (c.session.role === 'reseller' && row.rid === c.session.user.user_id))
      ? { floor_spend: Number(row.floor_spend), margin: Number(row.spend) - Number(row.floor_spend) }
      : {};

  const toBill = (row: BillRow, c: Caller): Bill => ({
    id: row.id,
    user_id: row.user_id,
    rid: row.rid,
    stat_date: row.stat_date,
    models: row.models,
    ...measures(row),
    updated_at: formatTime(row.updated_at, config.timeZone),
    ...marginOf(row, c),
  });

  const bills = resource(ctx, {
    table: 'stat_user_day',
    scope: (q, c) => statScope(q, c.session),
    page: {
      schema: billPageSchema,
      filter: (q, f) => {
        let out = f.user_id ? q.where('user_id', '=', f.user_id) : q;
        if (f.stat_date) {
          const [from, to] = checkDateRange(f.stat_date, BILL_MAX_DAYS);
          out = out.where('stat_date', '>=', from).where('stat_date', '<=', to);
        }
        return out;
      },
      order: [['stat_date', 'desc'], ['spend', 'desc'], ['id', 'desc']],
    },
    toWire: async (row: BillRow, c, view): Promise<Bill | BillDetail> => {
      if (view === 'page') return toBill(row, c);
      const stats = await modelStats([row]);
      return { ...toBill(row, c), model_stats: stats.get(`${row.user_id}|${row.stat_date}`) ?? [] };
    },
  });

  post(app, BILL_PAGE, { schema: billPageSchema, roles: [ANY_ROLE] }, (input, request) => bills.page(callerOf(request), input));
  get(app, BILL_DETAIL, { schema: billDetailSchema, roles: [ANY_ROLE] }, (input, request) => bills.detail(callerOf(request), input.id));

  // `ids` win (foreign ones are simply not found); otherwise the bill date range is required (docs/SPEC.md §2.4).
  post(app, BILL_EXPORT, { schema: billExportSchema, roles: [ANY_ROLE] }, async (input, request, reply) => {
    const c = callerOf(request);
    let source: AsyncIterable<BillKey[]>;
    if (input.ids?.length) {
      const picked = await statScope(db.selectFrom('stat_user_day').select(['user_id', 'stat_date']), c.session)
        .where('id', 'in', input.ids)
        .orderBy('stat_date', 'desc')
        .orderBy('user_id')
        .execute();
      source = (async function* () {
        yield picked;
      })();
    } else {
      if (!input.stat_date) throw invalidField('stat_date', 'required');
      source = billsInRange(ctx, c.session, checkDateRange(input.stat_date, BILL_MAX_DAYS), input.user_id);
    }
    const withUser = c.session.role !== 'user';
    async function* rows() {
      for await (const keys of source) {
        const stats = await modelStats(keys);
        const out: Record<string, unknown>[] = [];
        for (const k of keys) {
          for (const s of stats.get(`${k.user_id}|${k.stat_date}`) ?? []) {
            out.push({ stat_date: k.stat_date, user_id: k.user_id, model: s.model, total: s.total, tokens: s.token_count, spend: s.spend });
          }
        }
        yield out;
      }
    }
    return sendXlsx(reply, { filename: BILL_EXPORT_FILE, sheet: t('export.bills', c.locale), columns: exportColumns(c.locale, withUser) }, rows());
  });
}

function exportColumns(locale: Locale, withUser: boolean): XlsxColumn[] {
  const h = (key: Parameters<typeof t>[0]) => t(key, locale);
  return [
    { header: h('export.stat_date'), key: 'stat_date', width: 12 },
    ...(withUser ? [{ header: h('export.user_id'), key: 'user_id', width: 10 }] : []),
    { header: h('export.model'), key: 'model', width: 28 },
    { header: h('export.calls'), key: 'total', width: 12 },
    { header: h('export.tokens'), key: 'tokens', width: 14 },
    { header: h('export.spend_usd'), key: 'spend', width: 14 },
  ];
}

/** The caller's bills in [from, to], newest day first, users ascending: a keyset per day, so memory stays flat. */
async function* billsInRange(ctx: Ctx, session: Session, [from, to]: [string, string], userId: number | undefined): AsyncIterable<BillKey[]> {
  for (let date = to; date >= from; date = addDays(date, -1)) {
    let after = -1;
    for (;;) {
      let q = statScope(ctx.db.selectFrom('stat_user_day').select(['user_id', 'stat_date']), session).where('stat_date', '=', date).where('user_id', '>', after);
      if (userId) q = q.where('user_id', '=', userId);
      const keys = await q.orderBy('user_id').limit(EXPORT_BATCH).execute();
      if (keys.length) yield keys;
      if (keys.length < EXPORT_BATCH) break;
      after = keys[keys.length - 1]!.user_id;
    }
  }
}
