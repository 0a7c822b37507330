// Call logs partitioned by request day on PostgreSQL (issue 16; migration 2026-11-24-10,
// db/call-log-partitions.ts, jobs/call-log-purge.ts): the partitioned shape, an upgrade that keeps the
// rows written before it, days created ahead and concurrently, rows outside every day, retention that
// drops whole days and stays exact at the cutoff, the ledger's dedupe, and queries that read only
// their days.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { writeEntries } from '../src/billing/ledger-write';
import type { Entry } from '../src/billing/ledger-types';
import { readConfig } from '../src/config';
import { callLogPartitions, dayStart, ensureCallLogPartitions, type LogPartition } from '../src/db/call-log-partitions';
import { migrationProvider } from '../src/db/migrations/index';
import type { NewCallLog } from '../src/db/schema';
import { callLog } from './stat-fixtures';
import { formatTime } from '../src/http/time';
import { housekeep } from '../src/jobs/housekeeping';
import { setSysSection } from '../src/settings/sys-config';
import { world, type World } from './gateway-fixtures';
import { ADMIN_PASSWORD, freshPostgres } from './helpers';

const DAY = 86_400_000;
const day = (t: number) => `call_logs_${new Date(dayStart(t)).toISOString().slice(0, 10).replace(/-/g, '')}`;

/** A call log of `userId` at `reqTime` (written then too), with a price and tokens. */
const logRow = (userId: number, reqTime: number, extra: Partial<NewCallLog> = {}): NewCallLog =>
  callLog({ user_id: userId, req_time: reqTime, created_at: reqTime, app_id: 1, prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, total_price: 3, prompt: 'p', ...extra });

/** A logger that keeps its warnings (the upkeep logs and carries on instead of throwing). */
function quietLog(warnings: string[]): FastifyBaseLogger {
  const noop = () => {};
  const log = { info: noop, debug: noop, trace: noop, error: (_o: unknown, m?: string) => warnings.push(m ?? ''), fatal: noop, warn: (_o: unknown, m?: string) => warnings.push(m ?? ''), silent: noop, level: 'info' };
  return { ...log, child: () => log } as unknown as FastifyBaseLogger;
}

const names = (parts: LogPartition[]) => parts.map((p) => p.name);
const where = async (db: Kysely<any>, id: string) => (await sql<{ t: string }>`select tableoid::regclass::text as t from call_logs where id = ${id}`.execute(db)).rows[0]?.t;

/** The tables (partitions) a statement reads, from its plan. */
async function scanned(url: string, text: string, values: unknown[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const res = await client.query(`explain (format json) ${text}`, values);
    const out = new Set<string>();
    const walk = (n: Record<string, any>) => {
      if (n['Relation Name']) out.add(n['Relation Name'] as string);
      for (const c of (n.Plans as Record<string, any>[] | undefined) ?? []) walk(c);
    };
    walk((res.rows[0]['QUERY PLAN'] as { Plan: Record<string, any> }[])[0]!.Plan);
    return [...out].sort();
  } finally {
    await client.end();
  }
}

describe('call logs partitioned by day on PostgreSQL', () => {
  let w: World;
  let db: Kysely<any>;
  let url: string;

  beforeAll(async () => {
    w = await world('postgres');
    db = w.server.app.ctx.db as unknown as Kysely<any>;
    url = w.server.app.ctx.config.databaseUrl!;
  });
  afterAll(() => w?.close());

  it('is a table partitioned by req_time with a default partition and the days from yesterday to a week ahead', async () => {
    const kind = await sql<{ relkind: string }>`select relkind from pg_class where oid = 'call_logs'::regclass`.execute(db);
    expect(kind.rows[0]!.relkind).toBe('p');
    const pk = await sql<{ def: string }>`select pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'call_logs'::regclass and contype = 'p'`.execute(db);
    expect(pk.rows[0]!.def).toBe('PRIMARY KEY (id, req_time)');
    const parts = await callLogPartitions(db);
    // A fresh database has nothing to keep: no legacy partition.
    expect(parts.some((p) => p.name === 'call_logs_legacy')).toBe(false);
    expect(parts.filter((p) => p.isDefault).map((p) => `${p.schema}.${p.name}`)).toEqual(['call_log_parts.call_logs_default']);
    const today = dayStart(Date.now());
    for (let k = -1; k <= 7; k++) {
      const p = parts.find((x) => x.name === day(today + k * DAY));
      expect(p, `day ${k}`).toMatchObject({ schema: 'call_log_parts', from: today + k * DAY, to: today + (k + 1) * DAY, isDefault: false });
    }
    // A gateway call's log lands in today's partition.
    await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'partitioned' }] });
    await w.flush();
    const row = await db.selectFrom('call_logs').select('id').where('prompt', 'like', '%partitioned%').executeTakeFirstOrThrow();
    expect(await where(db, row.id)).toBe(`call_log_parts.${day(Date.now())}`);
  });

  it('keeps a row far in the past or future in the default partition, dedupes its replay, and moves it into its day when that day is made', async () => {
    const now = Date.now();
    const past = logRow(w.user.userId, now - 400 * DAY);
    const future = logRow(w.user.userId, now + 400 * DAY);
    // Through the ledger's writer, as a replayed journal batch would come: a charge to a group no row has (no money moves).
    const entry = (l: NewCallLog): Entry => ({ debits: [{ account: { kind: 'group', id: `no-group-${l.id}`, limited: false }, amount: 5 }], logs: [{ ...l }] });
    const first = await db.transaction().execute((trx) => writeEntries(trx as any, [entry(past), entry(future)], true, w.server.app.log));
    expect(first).toHaveLength(2);
    expect(await where(db, past.id)).toBe('call_log_parts.call_logs_default');
    expect(await where(db, future.id)).toBe('call_log_parts.call_logs_default');
    // The same batch again (the journal replayed after a crash): nothing is applied twice.
    const again = await db.transaction().execute((trx) => writeEntries(trx as any, [entry(past), entry(future)], true, w.server.app.log));
    expect(again).toEqual([]);

    const warnings: string[] = [];
    expect(await ensureCallLogPartitions(db, quietLog(warnings), past.req_time, past.req_time)).toEqual([day(past.req_time)]);
    expect(warnings).toEqual([]);
    expect(await where(db, past.id)).toBe(`call_log_parts.${day(past.req_time)}`);
    const read = await db.selectFrom('call_logs').selectAll().where('id', '=', past.id).executeTakeFirstOrThrow();
    expect(read.req_time).toBe(past.req_time);
    // Still deduped where it now is.
    expect(await db.transaction().execute((trx) => writeEntries(trx as any, [entry(past)], true, w.server.app.log))).toEqual([]);
    expect(Number((await db.selectFrom('call_logs').select((eb) => eb.fn.countAll().as('n')).where('trace_id', '=', past.trace_id).executeTakeFirstOrThrow()).n)).toBe(1);
  });

  it('lets several instances create the same days at once: each day made exactly once, no error', async () => {
    const others = [0, 1, 2].map(() => new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }) }));
    try {
      const from = dayStart(Date.now()) + 300 * DAY;
      const to = from + 9 * DAY;
      const warnings: string[] = [];
      const created = await Promise.all(others.map((k) => ensureCallLogPartitions(k, quietLog(warnings), from, to)));
      expect(warnings).toEqual([]);
      const all = created.flat().sort();
      expect(all).toHaveLength(10);
      expect(new Set(all).size).toBe(10);
      const parts = names(await callLogPartitions(db));
      for (let t = from; t <= to; t += DAY) expect(parts.filter((n) => n === day(t))).toHaveLength(1);
    } finally {
      await Promise.all(others.map((k) => k.destroy()));
    }
  });

  it('gives up on a day it cannot lock in time without failing, and that day’s rows wait in the default partition', async () => {
    const t = dayStart(Date.now()) + 500 * DAY;
    const row = logRow(w.user.userId, t + 1000);
    // A long read of the default partition: attaching a day needs it exclusively.
    const reader = new pg.Client({ connectionString: url });
    await reader.connect();
    try {
      await reader.query('begin');
      await reader.query('select count(*) from call_log_parts.call_logs_default');
      const warnings: string[] = [];
      const started = performance.now();
      expect(await ensureCallLogPartitions(db, quietLog(warnings), t, t + 2 * DAY)).toEqual([]);
      // One lock wait, then the run ends: not one wait per day.
      expect(warnings).toEqual(['call log partition not created; the next upkeep tries again']);
      expect(performance.now() - started).toBeLessThan(6000);
      // Writes go on meanwhile.
      await db.insertInto('call_logs').values(row).execute();
      expect(await where(db, row.id)).toBe('call_log_parts.call_logs_default');
    } finally {
      await reader.query('rollback');
      await reader.end();
    }
    expect(await ensureCallLogPartitions(db, quietLog([]), t, t)).toEqual([day(t)]);
    expect(await where(db, row.id)).toBe(`call_log_parts.${day(t)}`);
  });

  it('reads only the days of a ranged query: the log page, its export and the live rates', async () => {
    const tz = w.server.app.ctx.config.timeZone;
    const now = Date.now();
    const captured: { text: string; values: unknown[] }[] = [];
    const original = pg.Client.prototype.query;
    // Every read of call_logs by a request-time range while the console answers, to EXPLAIN afterwards
    // (the statistics job's keyset read, which has no such range, may run meanwhile: left out).
    pg.Client.prototype.query = function (this: pg.Client, text: unknown, values?: unknown, ...rest: unknown[]) {
      if (typeof text === 'string' && text.includes('from "call_logs"') && /"req_time" (>=|<=|<|>) \$/.test(text)) captured.push({ text, values: (values as unknown[]) ?? [] });
      return (original as (...a: unknown[]) => unknown).call(this, text, values, ...rest);
    } as typeof original;
    try {
      const range = [formatTime(now - 3600_000, tz), formatTime(now, tz)];
      const page = await w.admin.post('/api/v1/log/chat/page', { req_time: range, user_id: w.user.userId, current: 1, pageSize: 10 });
      expect(page.body.code).toBe(0);
      const exported = await w.admin.raw('POST', '/api/v1/log/chat/export', JSON.stringify({ req_time: range, status: 1 }));
      expect(exported.status).toBe(200);
      await exported.arrayBuffer();
      expect((await w.admin.post('/api/v1/dashboard/per/second', {})).body.code).toBe(0);
    } finally {
      pg.Client.prototype.query = original;
    }
    expect(captured.length).toBeGreaterThanOrEqual(3);
    const hours = new Set([day(now - 3600_000), day(now), day(now - 60_000)]);
    for (const q of captured) {
      const tables = await scanned(url, q.text, q.values);
      expect(tables.length, q.text).toBeGreaterThan(0);
      for (const t of tables) expect(hours.has(t), `${t} in ${q.text}`).toBe(true);
    }
  });
  it('drops whole days past retention, deletes the rest in batches, and is exact at the cutoff', async () => {
    const ctx = w.server.app.ctx;
    await db.deleteFrom('call_logs').execute();
    const base = dayStart(Date.now()) - 200 * DAY;
    expect(await ensureCallLogPartitions(db, quietLog([]), base - 2 * DAY, base + DAY)).toHaveLength(4);
    const cutoff = base + 12 * 3600_000;
    const u = w.user.userId;
    const rows = [
      ...[1, 2, 3].map((i) => logRow(u, base - 2 * DAY + i)),
      ...[1, 2].map((i) => logRow(u, base - DAY + i)),
      logRow(u, cutoff - 1),
      logRow(u, cutoff),
      logRow(u, cutoff + 1),
      logRow(u, base + DAY + 5),
      // The default partition's old row goes through the batched delete.
      logRow(u, base - 300 * DAY),
    ];
    await db.insertInto('call_logs').values(rows).execute();
    const before = await callLogPartitions(db);
    await setSysSection(ctx.db, 'log', { chat_reserve: 90 });
    const { logs } = await housekeep(ctx, cutoff + 90 * DAY);
    expect(logs).toBe(7);
    const after = await callLogPartitions(db);
    // Exactly the days ending at or before the cutoff are gone (this one's two, and older ones other tests made).
    expect(names(after)).toEqual(names(before.filter((p) => p.isDefault || p.to! > cutoff)));
    expect(names(after)).not.toContain(day(base - DAY));
    expect(names(after)).toContain(day(base));
    expect(after.length).toBeLessThan(before.length - 1);
    const left = await db.selectFrom('call_logs').select('req_time').orderBy('req_time').execute();
    expect(left.map((r) => r.req_time)).toEqual([cutoff, cutoff + 1, base + DAY + 5]);
    // Retention 0 drops nothing (a clock this far ahead also ends every session: this suite's last step).
    await setSysSection(ctx.db, 'log', { chat_reserve: 0 });
    expect((await housekeep(ctx, cutoff + 900 * DAY)).logs).toBe(0);
    expect(names(await callLogPartitions(db))).toEqual(names(after));
    await setSysSection(ctx.db, 'log', { chat_reserve: 90 });
  });

});

describe('upgrading a PostgreSQL database whose call_logs has rows', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it('keeps them in one legacy partition, readable, deduped, and drops it whole once it is past retention', async () => {
    const pgdb = await freshPostgres();
    cleanup.push(pgdb.drop);
    const now = Date.now();
    // The schema as it was before partitioning, with rows in it.
    const before = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: pgdb.url, max: 2 }) }) });
    const migrated = await new Migrator({ db: before, provider: migrationProvider }).migrateTo('2026-11-24-09-model-token-limits');
    expect(migrated.error).toBeUndefined();
    const old = [...Array.from({ length: 40 }, (_, i) => logRow(1, now - 100 * DAY + i * DAY)), logRow(1, now - 1000), logRow(1, now + 3 * DAY)];
    await before.insertInto('call_logs').values(old).execute();
    await before.destroy();

    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fg-part-'));
    cleanup.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const config = readConfig({ DATA_DIR: dataDir, ADMIN_ACCOUNT: 'admin', ADMIN_PASSWORD, WEB_DIST: path.join(dataDir, 'no-web'), LOG_LEVEL: 'warn', DATABASE_URL: pgdb.url });
    const app = await buildApp(config, { logger: { level: 'warn', stream: new Writable({ write: (_c, _e, cb) => cb() }) } });
    cleanup.push(() => app.close());
    const db = app.ctx.db as unknown as Kysely<any>;

    const parts = await callLogPartitions(db);
    const legacy = parts.find((p) => p.name === 'call_logs_legacy')!;
    // Up to the day after its latest row (three days ahead), so every old row fits.
    expect(legacy).toMatchObject({ schema: 'call_log_parts', from: null, to: dayStart(now + 3 * DAY) + DAY });
    // The days ahead start where the legacy partition ends.
    expect(parts.some((p) => p.name === day(now + 7 * DAY))).toBe(true);
    expect(parts.some((p) => p.name === day(now))).toBe(false);
    const count = async () => Number((await db.selectFrom('call_logs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(await count()).toBe(42);
    const read = await db.selectFrom('call_logs').selectAll().where('id', '=', old[5]!.id).executeTakeFirstOrThrow();
    expect(read).toMatchObject({ trace_id: old[5]!.trace_id, req_time: old[5]!.req_time });
    expect(await where(db, old[5]!.id)).toBe('call_log_parts.call_logs_legacy');
    // A replay of a log written before the upgrade is still recognised.
    const entry: Entry = { debits: [{ account: { kind: 'group', id: 'no-group', limited: false }, amount: 5 }], logs: [{ ...old[41]! }] };
    expect(await db.transaction().execute((trx) => writeEntries(trx as any, [entry], true, app.log))).toEqual([]);

    // Retention at 90 days: the rows past it leave in batches while the legacy partition straddles the cutoff…
    const first = await housekeep(app.ctx, now);
    expect(first.logs).toBe(old.filter((r) => r.req_time < now - 90 * DAY).length);
    expect(names(await callLogPartitions(db))).toContain('call_logs_legacy');
    // …and it goes whole once all of it is past.
    const kept = await count();
    const partitions = (await callLogPartitions(db)).length;
    const later = await housekeep(app.ctx, legacy.to! + 90 * DAY);
    expect(later.logs).toBe(kept);
    expect(await count()).toBe(0);
    const after = await callLogPartitions(db);
    expect(names(after)).not.toContain('call_logs_legacy');
    expect(after.length).toBeLessThan(partitions);
  });
});
