// Redis mode: the bus carries every change, but a pub/sub message is fire-and-forget — one lost to a
// Redis restart or a network blip would leave an instance's snapshot stale for good. So every
// `everyMs` (and at once after the bus reconnects) each instance compares the database with its
// snapshot, cheaply: one aggregate per table (row count, newest and summed `updated_at`), and only for
// a table whose aggregate moved, its `(id, updated_at)` pairs against the snapshot's rows. The rows
// that differ are handed to this process's listeners as a change event, exactly as if the lost message
// had arrived (the snapshot reloads them; the ledger and session cache forget what they cached).
// Every console write stamps `updated_at`, so a missed change cannot hide from the aggregate; summing
// (not only the max) also catches a write stamped by an instance whose clock runs behind.
import { sql, type Kysely } from 'kysely';
import type { Ctx } from '../context';
import type { Snapshot } from './snapshot';

const ROW_TABLES = ['users', 'apps', 'app_keys', 'groups', 'models', 'model_agents', 'provider_keys', 'corps', 'vip_levels'] as const;
type RowTable = (typeof ROW_TABLES)[number];
/** Above this many differing rows, reload the whole table instead of naming them. */
const MAX_IDS = 1000;

function snapshotRows(s: Snapshot, table: RowTable): Iterable<{ id: string; updated_at: number }> {
  switch (table) {
    case 'users':
      return s.users.values();
    case 'apps':
      return s.apps.values();
    case 'app_keys':
      return s.appKeys.values();
    case 'groups':
      return s.groups.values();
    case 'models':
      return s.models.values();
    case 'model_agents':
      return s.agents.values();
    case 'provider_keys':
      return s.keys.values();
    case 'corps':
      return s.corps.values();
    case 'vip_levels':
      return s.vipLevels.values();
  }
}

export interface Reconciler {
  /** One pass now (tests and the bus's reconnect call it). */
  run(): Promise<void>;
  stop(): Promise<void>;
}

export function startReconcile(ctx: Ctx, snapshot: Snapshot, everyMs: number): Reconciler {
  const db = ctx.db as unknown as Kysely<any>;
  const seen = new Map<string, string>();
  let running: Promise<void> = Promise.resolve();

  async function fingerprint(table: string): Promise<string> {
    const r = await db
      .selectFrom(table)
      .select([sql<number>`count(*)`.as('n'), sql<number>`max(updated_at)`.as('last'), sql<number>`sum(updated_at % 1000003)`.as('sum')])
      .executeTakeFirst();
    return `${r?.n}:${r?.last}:${r?.sum}`;
  }

  async function differing(table: RowTable): Promise<string[] | 'all'> {
    const rows = (await db.selectFrom(table).select(['id', 'updated_at']).execute()) as { id: string; updated_at: number }[];
    const mine = new Map<string, number>();
    for (const r of snapshotRows(snapshot, table)) mine.set(r.id, Number(r.updated_at));
    const out: string[] = [];
    for (const r of rows) {
      if (mine.get(r.id) !== Number(r.updated_at)) out.push(r.id);
      mine.delete(r.id);
    }
    out.push(...mine.keys()); // deleted in the database
    return out.length > MAX_IDS ? 'all' : out;
  }

  async function pass(): Promise<void> {
    for (const table of [...ROW_TABLES, 'sys_configs'] as const) {
      const fp = await fingerprint(table);
      if (seen.get(table) === fp) continue;
      // The first pass compares every table: a change between the snapshot's load and now counts too.
      const ids = table === 'sys_configs' ? 'all' : await differing(table);
      // A row table counts as seen only once the snapshot agrees with it: a refresh that failed (the
      // database away for a moment) is found and handed over again at the next pass.
      if (table === 'sys_configs' || (ids !== 'all' && !ids.length)) seen.set(table, fp);
      if (ids !== 'all' && !ids.length) continue;
      // sys_configs has no row ids to compare: it is simply read again whenever its aggregate moved.
      if (table !== 'sys_configs') ctx.log.info({ table, rows: ids === 'all' ? 'all' : ids.length }, 'reconcile: reloading changes the snapshot missed');
      ctx.bus.deliver({ entity: table, op: 'update', ids: ids === 'all' ? [] : ids });
    }
  }

  const run = () => {
    running = running.then(pass).catch((err: unknown) => ctx.log.warn({ err }, 'reconciling the gateway snapshot failed'));
    return running;
  };
  const timer = setInterval(() => void run(), everyMs);
  timer.unref();
  return {
    run,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
