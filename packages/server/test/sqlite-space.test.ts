// The SQLite file stays bounded under log retention (db/sqlite-space.ts): new files use incremental
// auto_vacuum, housekeeping hands the pages its purge freed back to the file system, a small file made
// without auto_vacuum is converted at start-up and a big one gets a warning; PostgreSQL is untouched.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { readConfig } from '../src/config';
import type { Ctx } from '../src/context';
import type { NewCallLog } from '../src/db/schema';
import { prepareSqliteFile, reclaimSqliteSpace } from '../src/db/sqlite-space';
import { callLog } from './stat-fixtures';
import { housekeep } from '../src/jobs/housekeeping';
import { setSysSection } from '../src/settings/sys-config';
import { startServer, type TestServer } from './helpers';

const DAY = 86_400_000;
const PROMPT = '这是一段保存下来的提示词，足够长，让每一行占满几百个字节。'.repeat(20);

/** A call log at `reqTime` with a long prompt, so a few thousand of them fill many pages. */
const log = (userId: number, reqTime: number): NewCallLog => callLog({ user_id: userId, req_time: reqTime, created_at: reqTime, app_id: 1, prompt: PROMPT });

async function pragma(ctx: Ctx, name: 'page_count' | 'freelist_count' | 'auto_vacuum' | 'temp_store'): Promise<number> {
  const { rows } = await sql<Record<string, number>>`${sql.raw(`PRAGMA ${name}`)}`.execute(ctx.db);
  return Number(Object.values(rows[0] ?? {})[0]);
}

async function writeLogs(ctx: Ctx, n: number, reqTime: (i: number) => number) {
  for (let i = 0; i < n; i += 200) await ctx.db.insertInto('call_logs').values(Array.from({ length: Math.min(200, n - i) }, (_, j) => log(1, reqTime(i + j)))).execute();
}

describe('SQLite space', () => {
  const closers: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('keeps statement journals in memory on the app\'s connection (temp_store), as on the writer thread\'s', async () => {
    const server: TestServer = await startServer('sqlite');
    closers.push(() => server.close());
    expect(await pragma(server.app.ctx, 'temp_store')).toBe(2);
  });

  it('hands the pages the retention purge freed back: the file shrinks', async () => {
    const server: TestServer = await startServer('sqlite');
    closers.push(() => server.close());
    const { ctx } = server.app;
    expect(await pragma(ctx, 'auto_vacuum')).toBe(2);
    const now = Date.now();
    // ~30 MB of logs past a 30-day retention, a few within it.
    await writeLogs(ctx, 12_000, (i) => now - 40 * DAY + i);
    await writeLogs(ctx, 50, (i) => now - DAY + i);
    const before = await pragma(ctx, 'page_count');
    expect(before).toBeGreaterThan(5000);
    await setSysSection(ctx.db, 'log', { chat_reserve: 30 });

    const { logs } = await housekeep(ctx, now, { batch: 2000, pauseMs: 1 });
    expect(logs).toBe(12_000);
    const after = await pragma(ctx, 'page_count');
    // Without incremental vacuum the pages stay in the file as free pages and page_count never drops.
    expect(await pragma(ctx, 'freelist_count')).toBe(0);
    expect(after).toBeLessThan(before * 0.2);
    expect(server.logs.join('')).toContain('returned free SQLite pages');

    // The file on disk follows once the WAL is checkpointed (on close at the latest).
    const file = path.join(ctx.config.dataDir, 'fastgate.db');
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(ctx.db);
    expect(fs.statSync(file).size).toBeLessThan(before * 4096 * 0.2);
    // What is kept is intact.
    expect(Number((await ctx.db.selectFrom('call_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)).toBe(50);
  });

  it('slices the vacuum and stops between slices when asked', async () => {
    const server = await startServer('sqlite');
    closers.push(() => server.close());
    const { ctx } = server.app;
    await writeLogs(ctx, 3000, (i) => i);
    await ctx.db.deleteFrom('call_logs').execute();
    const free = await pragma(ctx, 'freelist_count');
    expect(free).toBeGreaterThan(500);
    let slices = 0;
    const returned = await reclaimSqliteSpace(ctx, { slicePages: 100, pauseMs: 0, stopped: () => ++slices >= 3 });
    expect(returned).toBe(300);
    expect(await pragma(ctx, 'freelist_count')).toBe(free - 300);
    expect(await reclaimSqliteSpace(ctx, { slicePages: 100, pauseMs: 0 })).toBe(free - 300);
    expect(await pragma(ctx, 'freelist_count')).toBe(0);
  });

  it('converts a small file made without auto_vacuum at start-up, keeping its data', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fg-space-'));
    closers.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const config = readConfig({ DATA_DIR: dataDir, ADMIN_ACCOUNT: 'admin', ADMIN_PASSWORD: 'Admin#12345', WEB_DIST: path.join(dataDir, 'no-web'), LOG_LEVEL: 'info' });
    // A store as the product made it before: migrated, with logs, no auto_vacuum.
    const old = new SQLite(path.join(dataDir, 'fastgate.db'));
    old.pragma('journal_mode = WAL');
    old.exec('CREATE TABLE before_upgrade (x TEXT)');
    old.prepare('INSERT INTO before_upgrade VALUES (?)').run('kept');
    expect(old.pragma('auto_vacuum', { simple: true })).toBe(0);
    old.close();

    const logs: string[] = [];
    const stream = new Writable({ write: (chunk, _enc, cb) => (logs.push(String(chunk)), cb()) });
    const app = await buildApp(config, { logger: { level: 'info', stream } });
    closers.push(() => app.close());
    expect(await pragma(app.ctx, 'auto_vacuum')).toBe(2);
    expect(logs.join('')).toContain('converted the SQLite file to incremental auto_vacuum');
    expect((await sql<{ x: string }>`SELECT x FROM before_upgrade`.execute(app.ctx.db)).rows).toEqual([{ x: 'kept' }]);
  });

  it('warns once, and leaves the file alone, when it is too big to convert at start-up', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fg-space-'));
    closers.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const file = new SQLite(path.join(dataDir, 'fastgate.db'));
    closers.push(() => void file.close());
    file.exec('CREATE TABLE t (x TEXT)');
    const key = {};
    expect(prepareSqliteFile(file, key, 0)).toMatchObject({ mode: 'none' });
    expect(file.pragma('auto_vacuum', { simple: true })).toBe(0);
    const warnings: string[] = [];
    const ctx = { dialect: 'sqlite', db: key, log: { warn: (m: string) => warnings.push(m), info: () => {} } } as unknown as Ctx;
    expect(await reclaimSqliteSpace(ctx)).toBe(0);
    expect(await reclaimSqliteSpace(ctx)).toBe(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('npm run db:compact');
  });

  it('does nothing on PostgreSQL', async () => {
    const server = await startServer('postgres');
    closers.push(() => server.close());
    const { ctx } = server.app;
    await writeLogs(ctx, 500, (i) => i);
    await setSysSection(ctx.db, 'log', { chat_reserve: 30 });
    expect((await housekeep(ctx, Date.now(), { pauseMs: 1 })).logs).toBe(500);
    expect(await reclaimSqliteSpace(ctx)).toBe(0);
    expect(server.logs.join('')).not.toMatch(/SQLite|auto_vacuum/);
  });
});
