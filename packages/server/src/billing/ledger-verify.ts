// The ledger verifier (issue 13; `npm run ledger:verify`, GET /api/v1/sys/ledger/verify): recomputes
// every account's balance and used quota from the records money leaves behind and reports each figure
// that differs. The invariant, for every account row that exists:
//
//   users.quota       = Σ its deal records (status 1: recharge + gift − deduction − expiry; a reseller's
//                       allocations are deductions on its own records, billing/deals.ts)
//                       − Σ its charges as a caller that came out of its balance (an exempt account,
//                         users.is_limit_quota = 0, only counts usage: each call log keeps the flag
//                         the call was admitted under, a running task's settlement the one it was
//                         charged under)
//   users.used_quota  = Σ its charges as a caller + Σ the charges of its users (call_logs.rid: a reseller)
//   apps / app_keys / groups .used_quota = Σ the charges made through them
//
// Their `quota` is a limit their owner sets, not money, so it is not checked. A charge is a call log's
// total_price (written in the same transaction as the balances: billing/ledger-write.ts), or, for an
// async task still running, the estimate it was charged at submission (tasks.reserved, to the accounts
// in its settlement; its one call log, with the final price, is written when it ends:
// gateway/task-settlement.ts). Call logs are deleted by retention and by hand, so the charges before
// the statistics job's cursor are the larger of what the call logs still hold and what the statistics
// counted (they keep every row they read): a purge leaves the statistics, a statistics run that missed
// rows leaves the logs; either shows up as a note. Groups have no statistics: after a purge they are
// not checked; an account's exempt charges are known only while their call logs are kept. Everything is read in one transaction (PostgreSQL: repeatable read), so a batch the
// ledger commits meanwhile is either wholly seen or not at all; charges still held in memory or in the
// Redis journal are in neither the balances nor the logs. A task's end moves its tasks row before its
// charge lands (milliseconds): run again before calling that drift.
import { TaskStatus } from '@fastgate/core/entities/task';
import { QuotaType } from '@fastgate/core/entities/user';
import type { Kysely } from 'kysely';
import type { Dialect } from '../db/index';
import type { Database, DB } from '../db/schema';
import { readSettlement } from '../gateway/task-settlement';

type VerifiedKind = 'user' | 'app' | 'app_key' | 'group';

interface Drift {
  account: VerifiedKind;
  id: string;
  field: 'quota' | 'used_quota';
  expected: number;
  actual: number;
  /** actual − expected: positive = the account holds (or counts) more than its records say. */
  drift: number;
}

export interface LedgerReport {
  ok: boolean;
  checked: Record<VerifiedKind, number>;
  /** Every drift found, by account kind and id. */
  drifts: Drift[];
  /** Where figures came from the statistics, or what could not be checked. */
  notes: string[];
}

/** Charge tallies by account key (`user:7`, `reseller:7`, `app:3`, `app_key:<id>`, `group:<id>`). */
type Tally = Map<string, number>;
const bump = (t: Tally, key: string, n: number) => t.set(key, (t.get(key) ?? 0) + n);
const num = (v: unknown) => Number(v ?? 0);

const CREDITS: readonly number[] = [QuotaType.Recharge, QuotaType.Gift];

export async function verifyLedger(db: DB, dialect: Dialect): Promise<LedgerReport> {
  const run = db.transaction();
  return (dialect === 'postgres' ? run.setIsolationLevel('repeatable read') : run).execute((trx) => verifyIn(trx));
}

async function verifyIn(db: Kysely<Database>): Promise<LedgerReport> {
  const notes: string[] = [];
  const charges = await chargesOf(db, notes);
  const { exempt } = charges;

  const deals: Tally = new Map();
  for (const d of await db.selectFrom('deal_records').select((eb) => ['user_id', 'type', eb.fn.sum('quota').as('quota')]).where('status', '=', 1).groupBy(['user_id', 'type']).execute()) {
    bump(deals, String(d.user_id), CREDITS.includes(d.type) ? num(d.quota) : -num(d.quota));
  }

  const drifts: Drift[] = [];
  const check = (account: VerifiedKind, id: string | number, field: Drift['field'], expected: number, actual: unknown) => {
    const a = num(actual);
    if (a !== expected) drifts.push({ account, id: String(id), field, expected, actual: a, drift: a - expected });
  };

  const users = await db.selectFrom('users').select(['user_id', 'quota', 'used_quota']).orderBy('user_id').execute();
  for (const u of users) {
    const own = charges.total.get(`user:${u.user_id}`) ?? 0;
    check('user', u.user_id, 'used_quota', own + (charges.total.get(`reseller:${u.user_id}`) ?? 0), u.used_quota);
    check('user', u.user_id, 'quota', (deals.get(String(u.user_id)) ?? 0) - (own - (exempt.get(u.user_id) ?? 0)), u.quota);
  }
  const apps = await db.selectFrom('apps').select(['app_id', 'used_quota']).orderBy('app_id').execute();
  for (const a of apps) check('app', a.app_id, 'used_quota', charges.total.get(`app:${a.app_id}`) ?? 0, a.used_quota);
  const keys = await db.selectFrom('app_keys').select(['id', 'used_quota']).orderBy('id').execute();
  for (const k of keys) check('app_key', k.id, 'used_quota', charges.total.get(`app_key:${k.id}`) ?? 0, k.used_quota);
  let groups = 0;
  if (charges.purged) notes.push('groups not checked: call logs were deleted and groups have no statistics to stand in for them');
  else {
    const rows = await db.selectFrom('groups').select(['id', 'used_quota']).orderBy('id').execute();
    for (const g of rows) check('group', g.id, 'used_quota', charges.total.get(`group:${g.id}`) ?? 0, g.used_quota);
    groups = rows.length;
  }
  return { ok: drifts.length === 0, checked: { user: users.length, app: apps.length, app_key: keys.length, group: groups }, drifts, notes };
}

interface Charges {
  /** Every charge by account key. */
  total: Tally;
  /** The part of a user's charges as a caller its balance did not pay (it was exempt). */
  exempt: Map<number, number>;
  /** Call logs the statistics counted are gone (retention, deleted by hand). */
  purged: boolean;
}

async function chargesOf(db: Kysely<Database>, notes: string[]): Promise<Charges> {
  const cursor = (await db.selectFrom('stat_cursors').select(['created_at', 'last_id']).where('name', '=', 'call_logs').executeTakeFirst()) ?? { created_at: 0, last_id: '' };
  // Per (user, reseller, app, key, group, exempt) combination: far fewer rows than call logs. `counted`
  // is the part at or before the statistics cursor (the job reads in (created_at, id) order).
  const logs = await db
    .selectFrom('call_logs')
    .select((eb) => [
      'user_id',
      'rid',
      'app_id',
      'app_key_id',
      'group_id',
      'is_limit_quota',
      eb.fn.sum('total_price').as('total'),
      eb.fn
        .sum(eb.case().when(eb.or([eb('created_at', '<', cursor.created_at), eb.and([eb('created_at', '=', cursor.created_at), eb('id', '<=', cursor.last_id)])])).then(eb.ref('total_price')).else(0).end())
        .as('counted'),
    ])
    .where('total_price', '!=', 0)
    .groupBy(['user_id', 'rid', 'app_id', 'app_key_id', 'group_id', 'is_limit_quota'])
    .execute();
  // `exempt:<user>` tallies the charges a user's balance did not pay, like the others.
  const logged: Tally = new Map();
  const counted: Tally = new Map();
  const groups: Tally = new Map();
  for (const l of logs) {
    const keys = [`user:${l.user_id}`, ...(l.rid > 0 ? [`reseller:${l.rid}`] : []), ...(l.app_id ? [`app:${l.app_id}`] : []), ...(l.app_key_id ? [`app_key:${l.app_key_id}`] : [])];
    if (l.is_limit_quota === 0) keys.push(`exempt:${l.user_id}`);
    for (const k of keys) {
      bump(logged, k, num(l.total));
      bump(counted, k, num(l.counted));
    }
    if (l.group_id) bump(groups, `group:${l.group_id}`, num(l.total));
  }

  // What the statistics counted by the same keys (every row up to the cursor, deleted or not).
  const stats: Tally = new Map();
  const sums = await Promise.all([
    db.selectFrom('stat_user_day').select((eb) => ['user_id as k', eb.fn.sum('spend').as('s'), eb.fn.sum('exempt_spend').as('e')]).groupBy('user_id').execute(),
    db.selectFrom('stat_user_day').select((eb) => ['rid as k', eb.fn.sum('spend').as('s')]).where('rid', '>', 0).groupBy('rid').execute(),
    db.selectFrom('stat_app_day').select((eb) => ['app_id as k', eb.fn.sum('spend').as('s')]).groupBy('app_id').execute(),
    db.selectFrom('stat_app_key_day').select((eb) => ['app_key_id as k', eb.fn.sum('spend').as('s')]).groupBy('app_key_id').execute(),
  ]);
  (['user', 'reseller', 'app', 'app_key'] as const).forEach((kind, i) => {
    for (const r of sums[i]!) if (num(r.s) !== 0) bump(stats, `${kind}:${r.k}`, num(r.s));
  });
  for (const r of sums[0]!) if (num(r.e) !== 0) bump(stats, `exempt:${r.k}`, num(r.e));

  // Before the cursor, the larger of the two sources; an exempt tally follows its user's choice.
  const total: Tally = new Map(groups);
  let purged = 0;
  let missed = 0;
  const fromStats = (k: string) => (stats.get(k) ?? 0) > (counted.get(k) ?? 0);
  for (const k of new Set([...logged.keys(), ...stats.keys()])) {
    const inLogs = counted.get(k) ?? 0;
    const inStats = stats.get(k) ?? 0;
    const exempt = k.startsWith('exempt:');
    if (!exempt && inStats > inLogs) purged++;
    else if (!exempt && inLogs > inStats) missed++;
    const useStats = exempt ? fromStats(`user:${k.slice(7)}`) : inStats > inLogs;
    total.set(k, (logged.get(k) ?? 0) - inLogs + (useStats ? inStats : inLogs));
  }
  if (purged) notes.push(`${purged} accounts had call logs deleted: their charges before the statistics cursor come from the statistics`);
  if (missed) notes.push(`the statistics miss charges the call logs hold for ${missed} accounts (their bills are short)`);

  // Running tasks: the estimate each was charged, on the accounts (and limited flags) of its settlement.
  const exempt = new Map<number, number>();
  const addExempt = (userId: number, n: number) => n && exempt.set(userId, (exempt.get(userId) ?? 0) + n);
  for (const [k, v] of total) if (k.startsWith('exempt:')) addExempt(Number(k.slice(7)), v);
  const running = await db.selectFrom('tasks').select(['task_id', 'reserved', 'settlement']).where('status', 'in', [TaskStatus.Queued, TaskStatus.Synthesizing]).execute();
  for (const t of running) {
    const s = readSettlement(t.settlement);
    if (!s) {
      notes.push(`task ${t.task_id} has no settlement record: its charge is not counted`);
      continue;
    }
    const reserved = num(t.reserved);
    for (const a of s.accounts) {
      bump(total, `${a.kind}:${a.id}`, reserved);
      if (a.kind === 'user' && !a.limited) addExempt(a.id, reserved);
    }
  }
  return { total, exempt, purged: purged > 0 };
}
