// Issue 16: on SQLite the ledger's batches (hundreds of call-log rows, the balance updates, the commit's
// fsync) ran on the main thread, synchronously, and every request that arrived meanwhile waited. They are
// written by a thread of their own now (billing/sqlite-writer.ts); these tests hold the main thread to
// that, and the thread to the transaction semantics the ledger counts on.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import SQLite from 'better-sqlite3';
import { CompiledQuery, sql, Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refusesRows } from '../src/billing/ledger-quarantine';
import { batchStatements, SqliteWriter } from '../src/billing/sqlite-writer';
import type { NewCallLog } from '../src/db/schema';
import { sqliteFile } from '../src/db/index';
import { immediateTransactions } from '../src/db/sqlite-connection';
import { MAX_CHUNK_KEYS } from '../src/stats/count';
import { admin, expectNoDrift, startServer, type TestServer } from './helpers';
import { world } from './gateway-fixtures';
import { callLog, insertLogs, pauseSchedule, runStats } from './stat-fixtures';

afterEach(() => vi.restoreAllMocks());

describe('the ledger on SQLite', () => {
  it("sends a batch's parameters to the writer thread as plain arrays, which a structured clone copies whole", () => {
    // V8's serializer tags a plain packed array 'A'; kysely freezes a compiled query's parameters, and a
    // frozen array goes as a sparse one ('a'), index by index. The tag follows the format's two version bytes.
    const tag = (value: unknown) => String.fromCharCode(v8.serialize(value)[2]!);
    const compiled = CompiledQuery.raw('insert into "call_logs" ("id", "total_price", "model") values (?, ?, ?)', ['1', 2.5, 'gpt-4o']);
    expect(tag(compiled.parameters)).toBe('a');
    const [[text, parameters]] = batchStatements([compiled]) as [[string, unknown[]]];
    expect(text).toBe(compiled.sql);
    expect(parameters).toEqual(['1', 2.5, 'gpt-4o']);
    expect(tag(parameters)).toBe('A');
  });

  it('writes its batches off the main thread: no call-log insert is prepared there, and the books still balance', async () => {
    const w = await world('sqlite');
    try {
      // The main thread's better-sqlite3 (the writer thread loads its own copy of the module).
      const prepared = vi.spyOn(SQLite.prototype, 'prepare');
      const calls = await Promise.all(Array.from({ length: 40 }, (_, i) => w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: `call ${i}` }] })));
      expect(calls).toHaveLength(40);
      await w.flush();
      const onMain = prepared.mock.calls.map(([text]) => String(text)).filter((text) => /insert into "call_logs"|update "users"/i.test(text));
      expect(onMain).toEqual([]);
      prepared.mockRestore();
      // Written all the same, read back on the main connection at once (WAL: the commit is visible).
      const logs = await w.server.app.ctx.db.selectFrom('call_logs').select(sql<number>`count(*)`.as('n')).where('user_id', '=', w.user.userId).executeTakeFirstOrThrow();
      expect(Number(logs.n)).toBe(40);
      await expectNoDrift(w.server);
    } finally {
      await w.close();
    }
  });
});

/** V8's full collection, from a context made while `--expose-gc` was set (the process's own flags as they were). */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  v8.setFlagsFromString('--no-expose-gc');
  return gc;
}

describe('the ledger on SQLite, while the thread writes a batch', () => {
  it("holds none of the batch's statements (the thread has its copy; the entries stay for a retry)", async () => {
    const gc = collector();
    const w = await world('sqlite');
    // The file's write lock, on a connection of the test's own, taken as the batch is handed over (whether the
    // ledger's timer or the flush below hands it): the thread waits for it with the batch.
    const lock = new SQLite(sqliteFile(w.server.app.ctx.config.dataDir));
    try {
      const writer = w.server.app.gateway.sqliteWriter!;
      const run = writer.run.bind(writer);
      let handed: WeakRef<object> | undefined;
      // Keeps no reference of its own: the statements only as the ledger and the writer hold them.
      writer.run = (statements) => {
        handed = new WeakRef(statements);
        if (!lock.inTransaction) lock.exec('begin immediate');
        return run(statements);
      };
      await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'held' }] });
      const flushed = w.flush();
      await vi.waitUntil(() => handed !== undefined);
      // A WeakRef keeps its target until the task that made it ends.
      await new Promise((r) => setTimeout(r, 20));
      gc();
      expect(handed!.deref()).toBeUndefined();
      lock.exec('commit');
      await flushed;
      const logs = await w.server.app.ctx.db.selectFrom('call_logs').select(sql<number>`count(*)`.as('n')).where('user_id', '=', w.user.userId).executeTakeFirstOrThrow();
      expect(Number(logs.n)).toBe(1);
      await expectNoDrift(w.server);
    } finally {
      if (lock.inTransaction) lock.exec('rollback');
      lock.close();
      await w.close();
    }
  });
});

describe('the statistics job on SQLite', () => {
  it('reads, sums and writes in the writer thread: only the probe for anything new runs on the main thread, and every call counts once', async () => {
    const w = await world('sqlite');
    try {
      await pauseSchedule(w.admin);
      await Promise.all(Array.from({ length: 30 }, (_, i) => w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: `call ${i}` }] })));
      const prepared = vi.spyOn(SQLite.prototype, 'prepare');
      expect(await runStats(w.server)).toMatchObject({ rows: 30, chunks: 1, locked: false });
      const onMain = prepared.mock.calls.map(([text]) => String(text)).filter((text) => /from "call_logs"|insert into "stat_(?!cursors)/i.test(text));
      // Whether anything is new is asked on the main connection (one row of an index); the rows are read elsewhere.
      expect(onMain.filter((text) => !/^select "id" from "call_logs" .* limit \?$/.test(text))).toEqual([]);
      prepared.mockRestore();
      const db = w.server.app.ctx.db;
      const bill = await db.selectFrom('stat_user_day').select([sql<number>`sum(total)`.as('calls'), sql<number>`sum(spend)`.as('spend')]).where('user_id', '=', w.user.userId).executeTakeFirstOrThrow();
      const logs = await db.selectFrom('call_logs').select(sql<number>`sum(total_price)`.as('spend')).where('user_id', '=', w.user.userId).executeTakeFirstOrThrow();
      expect(Number(bill.calls)).toBe(30);
      expect(Number(bill.spend)).toBe(Number(logs.spend));
      expect(Number(bill.spend)).toBeGreaterThan(0);
      // Nothing new: a second run counts nothing.
      expect(await runStats(w.server)).toMatchObject({ rows: 0, chunks: 0 });
    } finally {
      await w.close();
    }
  });

  /** A SQLite server with its schedule paused and `n` call logs written a minute ago, for `body`. */
  async function withBacklog(n: number, row: (i: number) => Partial<NewCallLog> & { user_id: number }, body: (server: TestServer) => Promise<void>) {
    const server = await startServer('sqlite');
    try {
      await pauseSchedule(await admin(server));
      const day = Date.now() - 60_000;
      await insertLogs(server, Array.from({ length: n }, (_, i) => callLog({ req_time: day + i, total_price: 1, ...row(i) })));
      await body(server);
    } finally {
      await server.close();
    }
  }
  const userCalls = async (server: TestServer, from: number) =>
    Number((await server.app.ctx.db.selectFrom('stat_user_day').select(sql<number>`sum(total)`.as('n')).where('user_id', '>=', from).executeTakeFirstOrThrow()).n);

  it('writes a chunk early once it sums MAX_CHUNK_KEYS statistics rows, so a chunk of many users fits the thread', async () => {
    // Every row its own user, app, key and model: six statistics rows each.
    const n = Math.ceil((MAX_CHUNK_KEYS * 2.5) / 6);
    await withBacklog(n, (i) => ({ user_id: 30_000 + i, app_id: 40_000 + i, app_key_id: `key-${i}`, model: `model-${i}` }), async (server) => {
      expect(await runStats(server, { limit: 50_000 })).toMatchObject({ rows: n, chunks: 3, locked: false });
      const keys = await server.app.ctx.db.selectFrom('stat_app_key_day').select(sql<number>`count(*)`.as('n')).where('app_key_id', 'like', 'key-%').executeTakeFirstOrThrow();
      expect([Number(keys.n), await userCalls(server, 30_000)]).toEqual([n, n]);
    });
  });

  it('gives the lock back when the thread dies in the middle of a run, so the next run goes on from the cursor', async () => {
    await withBacklog(400, () => ({ user_id: 900 }), async (server) => {
      const writer = server.app.gateway.sqliteWriter!;
      // A chunk per row: the run is still going when the thread is stopped.
      const dying = runStats(server, { limit: 1 });
      const db = server.app.ctx.db;
      const lockUntil = async () => Number((await db.selectFrom('stat_cursors').select('lock_until').where('name', '=', 'call_logs').executeTakeFirst())?.lock_until ?? 0);
      while ((await lockUntil()) === 0) await new Promise((r) => setImmediate(r));
      await writer.close();
      await expect(dying).rejects.toThrow(/writer thread/);
      expect(await lockUntil()).toBe(0);
      // A new thread starts for the next run, which counts the rest: every row once.
      expect(await runStats(server)).toMatchObject({ locked: false });
      expect(await userCalls(server, 900)).toBe(400);
    });
  });
});

describe('SqliteWriter', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  const file = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fg-writer-'));
    dirs.push(dir);
    const f = path.join(dir, 'fastgate.db');
    const main = new SQLite(f);
    main.pragma('journal_mode = WAL');
    main.exec('create table t (id integer primary key, v integer not null check (v >= 0))');
    return { f, main, db: new Kysely<any>({ dialect: new SqliteDialect({ database: main }) }) };
  };

  it('commits every statement of a run together, or none: a refused row rolls the whole run back with the code refusesRows reads', async () => {
    const { f, main, db } = file();
    const writer = new SqliteWriter(f);
    try {
      await writer.run([db.insertInto('t').values({ id: 1, v: 1 }).compile(), db.insertInto('t').values({ id: 2, v: 2 }).compile()]);
      expect(main.prepare('select count(*) n from t').get()).toEqual({ n: 2 });
      const refused = writer.run([db.insertInto('t').values({ id: 3, v: 3 }).compile(), db.insertInto('t').values({ id: 4, v: -1 }).compile()]);
      await expect(refused).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_CHECK' });
      expect(refusesRows(await refused.catch((e: unknown) => e))).toBe(true);
      expect(main.prepare('select count(*) n from t').get()).toEqual({ n: 2 });
      // A value better-sqlite3 cannot bind is a TypeError there too.
      const unbindable = await writer.run([{ ...db.insertInto('t').values({ id: 5, v: 5 }).compile(), parameters: [5, { no: 'object' }] }]).catch((e: unknown) => e);
      expect(unbindable).toBeInstanceOf(TypeError);
      expect(refusesRows(unbindable)).toBe(true);
    } finally {
      await writer.close();
      main.close();
    }
  });

  it('runs with the settings every connection gets (foreign keys on, statement journals in memory, not temp files) and a 2 MB page cache', async () => {
    const { f, main, db } = file();
    const writer = new SqliteWriter(f);
    try {
      // Read on the thread's own connection, through the pragmas' table-valued functions (t holds v ≥ 0; a
      // cache size in KiB is negative).
      const read = (id: number, pragma: string) => sql`insert into t (id, v) select ${id}, abs(${sql.raw(pragma)}) from ${sql.raw(`pragma_${pragma}`)}`.compile(db);
      await writer.run([read(1, 'temp_store'), read(2, 'foreign_keys'), read(3, 'cache_size')]);
      expect(main.prepare('select id, v from t order by id').all()).toEqual([
        { id: 1, v: 2 },
        { id: 2, v: 1 },
        { id: 3, v: 2000 },
      ]);
    } finally {
      await writer.close();
      main.close();
    }
  });

  it('waits for a write transaction open on the main connection, then commits; never deadlocks', async () => {
    const { f, main, db } = file();
    const writer = new SqliteWriter(f);
    try {
      main.exec('begin immediate');
      main.prepare('insert into t (id, v) values (10, 10)').run();
      const run = writer.run([db.insertInto('t').values({ id: 11, v: 11 }).compile()]);
      await new Promise((r) => setTimeout(r, 150));
      main.exec('commit');
      await run;
      expect(main.prepare('select id from t order by id').all()).toEqual([{ id: 10 }, { id: 11 }]);
    } finally {
      await writer.close();
      main.close();
    }
  });

  it('gives up on a lock it cannot get within busyMs (nothing written, the ledger retries later), and starts a new thread after close', async () => {
    const { f, main, db } = file();
    const writer = new SqliteWriter(f, 200);
    try {
      await writer.run([db.insertInto('t').values({ id: 1, v: 1 }).compile()]);
      main.exec('begin immediate');
      await expect(writer.run([db.insertInto('t').values({ id: 2, v: 2 }).compile()])).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
      main.exec('rollback');
      await writer.close();
      await writer.run([db.insertInto('t').values({ id: 3, v: 3 }).compile()]);
      expect(main.prepare('select id from t order by id').all()).toEqual([{ id: 1 }, { id: 3 }]);
    } finally {
      await writer.close();
      main.close();
    }
  });

  it('reports itself unusable when its thread cannot start, so the ledger writes on the main connection', async () => {
    const { db, main } = file();
    const writer = new SqliteWriter(path.join(os.tmpdir(), 'fg-no-such-dir', 'x', 'fastgate.db'));
    try {
      expect(writer.usable).toBe(true);
      await expect(writer.run([db.insertInto('t').values({ id: 1, v: 1 }).compile()])).rejects.toThrow(/directory does not exist|unable to open/i);
      expect(writer.usable).toBe(false);
      await expect(writer.run([db.insertInto('t').values({ id: 1, v: 1 }).compile()])).rejects.toThrow();
    } finally {
      await writer.close();
      main.close();
    }
  });

  it('leaves the main connection\'s read-then-write transactions intact: they begin IMMEDIATE and the writer waits for them', async () => {
    const { f, main } = file();
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: immediateTransactions(main) }) });
    const writer = new SqliteWriter(f);
    try {
      let inFlight: Promise<void> | undefined;
      await db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('t').selectAll().execute();
        // A ledger batch lands meanwhile (with a deferred BEGIN it would commit now, and the write below
        // would fail: SQLITE_BUSY, a stale snapshot).
        inFlight = writer.run([db.insertInto('t').values({ id: 20, v: 20 }).compile()]);
        await new Promise((r) => setTimeout(r, 150));
        await trx.insertInto('t').values({ id: 10 + before.length, v: 1 }).execute();
      });
      await inFlight;
      expect(main.prepare('select id from t order by id').all()).toEqual([{ id: 10 }, { id: 20 }]);
    } finally {
      await writer.close();
      main.close();
    }
  });

  // Issue 16: at c=1 a call's thread woken onto the core where a batch was running waited out the batch
  // (~1 ms every 20 ms): the product's p99 was twice the bare proxy's (docs/BENCHMARKS.md, twenty-fifth session).
  describe.runIf(process.platform === 'linux')('its thread as background work (Linux)', () => {
    /** This process's threads: their nice values and scheduling policies (/proc/self/task/<tid>/stat, fields 19 and 41). */
    const schedules = () =>
      new Map(
        fs.readdirSync('/proc/self/task').flatMap((tid) => {
          try {
            const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
            const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
            return [[tid, { nice: Number(fields[16]), policy: Number(fields[38]) }] as const];
          } catch {
            return []; // gone meanwhile
          }
        }),
      );
    const threads = () => new Map([...schedules()].map(([tid, s]) => [tid, s.nice] as const));
    /** The nice values of the threads started since `before`. */
    const started = (before: Map<string, number>) => [...threads()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
    const SCHED_OTHER = 0;
    const SCHED_IDLE = 5;
    const hasChrt = spawnSync('chrt', ['--version'], { stdio: 'ignore' }).status === 0;

    // SCHED_IDLE too: at nice 19 a running batch still finished its slice before a woken call's thread (twenty-seventh session).
    it('runs at nice 19, and as SCHED_IDLE where chrt can set it, the calls\' threads at the process\'s priority', async () => {
      const { f, main, db } = file();
      const before = schedules();
      const writer = new SqliteWriter(f);
      try {
        await writer.run([db.insertInto('t').values({ id: 1, v: 1 }).compile()]);
        const fresh = [...schedules()].filter(([tid]) => !before.has(tid)).map(([, s]) => s);
        expect(fresh.map((s) => s.nice)).toContain(19);
        const mainThread = schedules().get(String(process.pid));
        expect(mainThread?.nice).toBe(os.getPriority());
        if (hasChrt) {
          expect(fresh).toContainEqual({ nice: 19, policy: SCHED_IDLE });
          expect(mainThread?.policy).toBe(SCHED_OTHER);
        }
        expect(os.getPriority()).not.toBe(19);
      } finally {
        await writer.close();
        main.close();
      }
    });

    it('retires a thread whose batch fell behind: the next batches run on a thread at the process\'s priority, and every one is written', async () => {
      const { f, main, db } = file();
      const warn = vi.fn();
      const writer = new SqliteWriter(f, 30_000, { behindMs: 100, log: { warn } as never });
      try {
        await writer.run([db.insertInto('t').values({ id: 1, v: 1 }).compile()]);
        // The write lock held past behindMs: the batch is answered late (as a starved thread's would be).
        main.exec('begin immediate');
        const late = writer.run([db.insertInto('t').values({ id: 2, v: 2 }).compile()]);
        await new Promise((r) => setTimeout(r, 250));
        main.exec('commit');
        await late;
        expect(warn).toHaveBeenCalledTimes(1);
        const before = threads();
        await writer.run([db.insertInto('t').values({ id: 3, v: 3 }).compile()]);
        const fresh = started(before);
        expect(fresh.length).toBeGreaterThan(0);
        expect(fresh).not.toContain(19);
        // The retired thread is gone: no thread of this process is at nice 19 any more.
        await expect.poll(() => [...threads().values()]).not.toContain(19);
        expect(writer.usable).toBe(true);
        expect(main.prepare('select id from t order by id').all()).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
      } finally {
        await writer.close();
        main.close();
      }
    });

    it('keeps its thread at background priority when the main thread, not the writer, was late to read an answer', async () => {
      const { f, main, db } = file();
      const warn = vi.fn();
      // A second: time enough for the thread at nice 19 on a machine busy with other tests.
      const writer = new SqliteWriter(f, 30_000, { behindMs: 1_000, log: { warn } as never });
      try {
        await writer.run([db.insertInto('t').values({ id: 1, v: 1 }).compile()]);
        const before = threads();
        const sent = performance.now();
        const answered = writer.run([db.insertInto('t').values({ id: 2, v: 2 }).compile()]);
        // The event loop held (a long synchronous task) until the batch is committed and behindMs is well
        // past: the thread's answer waits to be read.
        const committed = main.prepare('select 1 from t where id = 2');
        while (!committed.get() || performance.now() - sent < 1_300);
        await answered;
        await writer.run([db.insertInto('t').values({ id: 3, v: 3 }).compile()]);
        expect(warn).not.toHaveBeenCalled();
        expect(started(before)).toEqual([]);
        expect([...threads().values()]).toContain(19);
        expect(main.prepare('select id from t order by id').all()).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
      } finally {
        await writer.close();
        main.close();
      }
    });
  });
});
