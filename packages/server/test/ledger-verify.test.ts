// The ledger verifier (issue 13: billing/ledger-verify.ts, GET /api/v1/sys/ledger/verify, `npm run
// ledger:verify`): it agrees with every balance after real traffic (calls, streams, an exempt account,
// recharges, a reseller's allocations, async tasks running and ended, concurrent calls in memory and in
// Redis mode with two instances), it names each hand-made drift on the account and field that has it,
// and it keeps agreeing once call logs are deleted by retention (the statistics stand in for them).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { TaskStatus } from '@fastgate/core/entities/task';
import OpenAI from 'openai';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled, world, type World } from './gateway-fixtures';
import { dialects, expectNoDrift, ledgerReport, setQuota, signedIn, startServer, type Client, type TestServer } from './helpers';
import { callLog, insertLogs, pauseSchedule, runStats } from './stat-fixtures';
import { taskWorld, type TaskWorld } from './task-fixtures';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const REDIS_URL = process.env.TEST_REDIS_URL;
const run = promisify(execFile);

/** `npm run ledger:verify` against a test server's database: its exit code and output. */
async function cli(server: TestServer, ...args: string[]): Promise<{ code: number; out: string }> {
  const { dataDir, databaseUrl } = server.app.ctx.config;
  try {
    const r = await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/ledger-verify.mjs'), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '' },
    });
    return { code: 0, out: r.stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

const chat = (openai: OpenAI, content: string, stream = false) =>
  stream
    ? openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content }], stream: true }).then(async (s) => {
        for await (const _ of s) void _;
      })
    : openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content }] });

describe.each(dialects)('ledger verifier on %s', (dialect) => {
  let w: World;
  let reseller: Client & { userId: number };
  let ru: Client & { userId: number };
  let ruClient: OpenAI;
  const db = () => w.server.app.ctx.db;

  beforeAll(async () => {
    w = await world(dialect);
    // Statistics run when a test says so (a scheduled run could count a hand-made log before it is undone).
    await pauseSchedule(w.admin);
    // Its group gives the calls through it a group to count; a reseller allocates to its own user.
    expect((await w.admin.post('/api/v1/group/create', { name: 'all', discount: 80, models: [w.model], is_public: true, is_default: true, weight: 1 })).body.code).toBe(0);
    reseller = await signedIn(w.server, 'reseller', `verify-reseller-${dialect}`);
    expect((await w.admin.post('/api/v1/admin/reseller/recharge', { user_id: reseller.userId, quota: 5_000_000 })).body.code).toBe(0);
    const made = await reseller.post('/api/v1/admin/user/create', { account: `verify-ru-${dialect}`, name: 'ru', email: `verify-ru-${dialect}@example.com`, password: 'Passw0rd!', quota: 2_000_000 });
    expect(made.body.code).toBe(0);
    ru = await signedIn(w.server, 'user', `verify-ru2-${dialect}@example.com`, { rid: reseller.userId });
    expect((await reseller.post('/api/v1/admin/user/recharge', { user_id: ru.userId, quota: 1_000_000 })).body.code).toBe(0);
    await settled(w);
    const app = await ru.post('/api/v1/app/create', { name: 'verify', is_create_key: true });
    ruClient = new OpenAI({ apiKey: app.body.data.key as string, baseURL: `${w.server.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => w?.close());

  it('agrees with every balance after calls, streams, an exempt account, recharges and allocations', async () => {
    await chat(w.openai, 'one');
    await chat(w.openai, 'two', true);
    await chat(ruClient, 'three');
    await chat(ruClient, 'four', true);
    // An exempt account only counts usage: its balance stays.
    const plain = await db().selectFrom('users').selectAll().where('user_id', '=', w.user.userId).executeTakeFirstOrThrow();
    expect((await w.admin.post('/api/v1/admin/user/update', { id: plain.id, account: plain.account, name: plain.name, email: plain.email, is_limit_quota: false })).body.code).toBe(0);
    await settled(w);
    await w.flush();
    const before = await w.quotaOf(w.user.userId);
    await chat(w.openai, 'free of balance');
    await w.flush();
    expect(await w.quotaOf(w.user.userId)).toBe(before);
    expect((await w.admin.post('/api/v1/admin/user/update', { id: plain.id, account: plain.account, name: plain.name, email: plain.email, is_limit_quota: true })).body.code).toBe(0);
    await settled(w);
    // A deduction, and a reseller taking quota back from its user.
    expect((await w.admin.post('/api/v1/admin/user/recharge', { user_id: w.user.userId, quota: 1000, quota_type: 2 })).body.code).toBe(0);
    expect((await reseller.post('/api/v1/admin/user/recharge', { user_id: ru.userId, quota: 500, quota_type: 2 })).body.code).toBe(0);

    const r = await w.admin.get('/api/v1/sys/ledger/verify');
    expect(r.body.code).toBe(0);
    expect(r.body.data).toMatchObject({ ok: true, drifts: [], drift_count: 0, notes: [] });
    // The admin, the world's user, the reseller and its two users; the apps, their keys; the group.
    expect(r.body.data.checked).toMatchObject({ user: 5, group: 1 });
    expect(r.body.data.checked.app_key).toBeGreaterThanOrEqual(2);
    // Admins only.
    expect((await reseller.get('/api/v1/sys/ledger/verify')).status).toBe(401);
    expect((await ru.get('/api/v1/sys/ledger/verify')).status).toBe(401);
  });

  it('names each hand-made drift by account and field, and `npm run ledger:verify` exits 1 on it', async () => {
    const app = (await db().selectFrom('apps').select(['app_id', 'id']).where('user_id', '=', ru.userId).executeTakeFirstOrThrow());
    const key = (await db().selectFrom('app_keys').select('id').where('app_id', '=', app.app_id).executeTakeFirstOrThrow()).id;
    const group = (await db().selectFrom('groups').select('id').executeTakeFirstOrThrow()).id;
    const ledgerBefore = await ledgerReport(w.server);

    // Quota from nowhere, usage nobody made, and a charge logged that no balance paid.
    await db().updateTable('users').set((eb) => ({ quota: eb('quota', '+', 5) })).where('user_id', '=', w.user.userId).execute();
    await db().updateTable('apps').set((eb) => ({ used_quota: eb('used_quota', '+', 7) })).where('app_id', '=', app.app_id).execute();
    await insertLogs(w.server, [callLog({ user_id: ru.userId, rid: reseller.userId, app_id: app.app_id, app_key_id: key, group_id: group, req_time: Date.now(), total_price: 11 })]);
    const report = await ledgerReport(w.server);
    expect(report.ok).toBe(false);
    const drifts = report.drifts.filter((d) => !ledgerBefore.drifts.some((b) => b.account === d.account && b.id === d.id && b.field === d.field));
    expect(drifts).toEqual(
      expect.arrayContaining([
        { account: 'user', id: String(w.user.userId), field: 'quota', expected: expect.any(Number), actual: expect.any(Number), drift: 5 },
        { account: 'app', id: String(app.app_id), field: 'used_quota', expected: expect.any(Number), actual: expect.any(Number), drift: -11 + 7 },
        { account: 'user', id: String(ru.userId), field: 'quota', expected: expect.any(Number), actual: expect.any(Number), drift: 11 },
        { account: 'user', id: String(ru.userId), field: 'used_quota', expected: expect.any(Number), actual: expect.any(Number), drift: -11 },
        { account: 'user', id: String(reseller.userId), field: 'used_quota', expected: expect.any(Number), actual: expect.any(Number), drift: -11 },
        { account: 'app_key', id: key, field: 'used_quota', expected: expect.any(Number), actual: expect.any(Number), drift: -11 },
        { account: 'group', id: group, field: 'used_quota', expected: expect.any(Number), actual: expect.any(Number), drift: -11 },
      ]),
    );
    expect(drifts).toHaveLength(7);
    const out = await cli(w.server);
    expect(out.code, out.out).toBe(1);
    expect(out.out).toContain(`DRIFT user ${w.user.userId} quota: holds`);
    expect(out.out).toContain(`DRIFT group ${group} used_quota`);

    // A deal record lost: the balance it moved no longer adds up.
    await db().updateTable('users').set((eb) => ({ quota: eb('quota', '-', 5) })).where('user_id', '=', w.user.userId).execute();
    await db().updateTable('apps').set((eb) => ({ used_quota: eb('used_quota', '-', 7) })).where('app_id', '=', app.app_id).execute();
    await db().deleteFrom('call_logs').where('total_price', '=', 11).where('user_id', '=', ru.userId).execute();
    const deal = await db().selectFrom('deal_records').selectAll().where('user_id', '=', ru.userId).where('type', '=', 1).executeTakeFirstOrThrow();
    await db().deleteFrom('deal_records').where('id', '=', deal.id).execute();
    expect((await ledgerReport(w.server)).drifts).toEqual([{ account: 'user', id: String(ru.userId), field: 'quota', expected: expect.any(Number), actual: expect.any(Number), drift: Number(deal.quota) }]);
    await db().insertInto('deal_records').values(deal).execute();
    await expectNoDrift(w.server);
    const clean = await cli(w.server, '--json');
    expect(clean.code, clean.out).toBe(0);
    expect(JSON.parse(clean.out)).toMatchObject({ ok: true, drifts: [] });
  });

  it('keeps agreeing once call logs are deleted: the statistics stand in for them, groups are left unchecked', async () => {
    await chat(ruClient, 'counted, then purged');
    await runStats(w.server);
    await db().deleteFrom('call_logs').execute();
    // A call after the purge, not yet in the statistics: the logs count for it.
    await chat(ruClient, 'after the purge');
    const report = await ledgerReport(w.server);
    expect(report.drifts).toEqual([]);
    expect(report.checked.group).toBe(0);
    expect(report.notes.join('\n')).toMatch(/call logs deleted/);
    expect(report.notes.join('\n')).toMatch(/groups not checked/);
  });

  it('holds under 40 concurrent calls on a balance that runs out', async () => {
    await setQuota(w.server, ru.userId, 600);
    await settled(w);
    const results = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => chat(ruClient, `race ${i}`, i % 2 === 1)));
    expect(results.some((r) => r.status === 'rejected')).toBe(true);
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
    await expectNoDrift(w.server);
  });
});

describe.each(dialects)('ledger verifier with async tasks on %s', (dialect) => {
  let w: TaskWorld;
  beforeAll(async () => {
    w = await taskWorld(dialect);
  });
  afterAll(() => w?.close());

  it("counts a running task's estimate, then its final price", async () => {
    const r = await w.submit('video', { model: 'dh-test', text: 'long [[mock:duration=25]][[mock:polls=3]]', duration: 10 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // Running: queued, or already polled once by the app's own 5-second job.
    expect([TaskStatus.Queued, TaskStatus.Synthesizing]).toContain((await w.row(r.body.id)).status);
    await expectNoDrift(w.server);
    // The estimate stays charged while the task runs; without it in the tasks table, the charge is unexplained.
    await w.server.app.ctx.db.updateTable('tasks').set({ reserved: 0 }).where('task_id', '=', r.body.id).execute();
    expect((await ledgerReport(w.server)).drifts.find((d) => d.id === String(w.user.userId) && d.field === 'quota')?.drift).toBe(-10_000);
    await w.server.app.ctx.db.updateTable('tasks').set({ reserved: 10_000 }).where('task_id', '=', r.body.id).execute();
    expect((await w.untilEnded(r.body.id)).total_price).toBe(25_000);
    await expectNoDrift(w.server);
  });
});

describe.skipIf(!REDIS_URL)('ledger verifier in Redis mode, two instances on one PostgreSQL (skipped unless TEST_REDIS_URL is set)', () => {
  const prefix = `fgtest:verify:${randomBytes(6).toString('hex')}:`;
  let w: World;
  let second: TestServer;

  beforeAll(async () => {
    const env = { REDIS_URL: REDIS_URL!, REDIS_PREFIX: prefix };
    w = await world('postgres', { env, quota: 600 });
    // A second instance on the same database and Redis: started after the world exists, so it loads it whole.
    // Its data dir too: the master key that decrypts the provider keys is there.
    second = await startServer('sqlite', { ...env, DATABASE_URL: w.server.app.ctx.config.databaseUrl!, DATA_DIR: w.server.app.ctx.config.dataDir });
  });
  afterAll(async () => {
    await second?.close();
    const redis = w?.server.app.ctx.redis?.client;
    const keys = redis ? await redis.keys(`${prefix}*`) : [];
    if (keys.length) await redis!.del(...keys);
    await w?.close();
  });

  it('ends concurrent calls spread over both instances with no drift', async () => {
    const other = new OpenAI({ apiKey: w.key, baseURL: `${second.url}/v1`, maxRetries: 0 });
    const results = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => chat(i % 2 ? other : w.openai, `both ${i}`, i % 4 < 2)));
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
    expect(results.some((r) => r.status === 'rejected')).toBe(true);
    await second.app.gateway.ledger.flush();
    await expectNoDrift(w.server);
    const row = await w.server.app.ctx.db.selectFrom('users').select('quota').where('user_id', '=', w.user.userId).executeTakeFirstOrThrow();
    expect(Number(row.quota)).toBeLessThan(600);
  });
});
