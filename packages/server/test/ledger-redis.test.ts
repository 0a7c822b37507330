// The Redis ledger store's crash paths, on PostgreSQL and Redis (TEST_REDIS_URL): a second store in
// the same process plays an instance that dies at each step of a batch write, the app's own ledger
// is the survivor. Whatever the step, each charge reaches the database exactly once and Redis ends at
// the database's balance with nothing held or pending.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisLedgerStore } from '../src/billing/ledger-redis';
import type { AccountRef, Entry, Reservation } from '../src/billing/ledger-types';
import { writeEntries } from '../src/billing/ledger-write';
import { admin, expectNoDrift, holdFlushes, setQuota, signedIn, startServer, type TestServer } from './helpers';
import { callLog, pauseSchedule } from './stat-fixtures';

const REDIS_URL = process.env.TEST_REDIS_URL;
const COST = 1_000;
const START = 100_000;

describe.skipIf(!REDIS_URL)('Redis ledger store: an instance dying mid-batch (skipped unless TEST_REDIS_URL is set)', () => {
  let server: TestServer;
  let prefix: string;

  beforeAll(async () => {
    prefix = `fgtest:ledger:${randomBytes(6).toString('hex')}:`;
    server = await startServer('postgres', { REDIS_URL: REDIS_URL!, REDIS_PREFIX: prefix, REDIS_LEASE_S: '0.5' });
    // The statistics job flushes this instance's ledger every 10 s, and a flush in Redis mode takes every
    // instance's pending entries: it would take the dying store's before the test's own take().
    await pauseSchedule(await admin(server));
  });

  afterAll(async () => {
    const redis = server.app.ctx.redis!.client;
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await server.close();
  });

  /** A fresh limited user with START quota, and a store that will "die" after `step`. */
  async function setup() {
    const { ctx, gateway } = server.app;
    const user = await signedIn(server, 'user', `ledger-${randomBytes(4).toString('hex')}@example.com`);
    await setQuota(server, user.userId, START);
    const account: AccountRef = { kind: 'user', id: user.userId, limited: true };
    // The survivor reads the balance first, so `base` exists when the dying instance writes.
    expect(await gateway.ledger.available(account)).toBe(START);
    const dying = new RedisLedgerStore(ctx, ctx.redis!, gateway.snapshot, { maxBatch: 200, tick: () => undefined });
    const r: Reservation = { traceId: randomBytes(16).toString('hex'), accounts: [account], amount: 5 * COST, settled: false };
    expect(await dying.reserve(r)).toBeUndefined();
    const entry: Entry = { debits: [{ account, amount: COST }], logs: [callLog({ user_id: user.userId, req_time: Date.now(), trace_id: r.traceId, total_price: COST })] };
    return { user, account, dying, r, entry };
  }

  /** setup(), then the dying instance records its charge and claims it, the survivor's flushes held meanwhile. */
  async function recordedAndClaimed() {
    const s = await setup();
    const release = holdFlushes(server);
    try {
      await s.dying.record(s.entry, s.r);
      const batch = (await s.dying.take())!;
      expect(batch.entries).toHaveLength(1);
      return { ...s, batch };
    } finally {
      release();
    }
  }

  async function settledState(userId: number, traceId: string) {
    const { ctx, gateway } = server.app;
    const redis = ctx.redis!.client;
    // Past the lease: the survivor's ledger takes over whatever the dead one left.
    await new Promise((r) => setTimeout(r, 1000));
    await gateway.ledger.flush();
    const row = await ctx.db.selectFrom('users').select(['quota', 'used_quota']).where('user_id', '=', userId).executeTakeFirstOrThrow();
    const logs = await ctx.db.selectFrom('call_logs').select('id').where('trace_id', '=', traceId).execute();
    const [held, pending] = await redis.hmget(`${prefix}bal:user:${userId}`, 'held', 'pending');
    return {
      quota: Number(row.quota),
      used: Number(row.used_quota),
      logs: logs.length,
      held: Number(held ?? 0),
      pending: Number(pending ?? 0),
      available: await gateway.ledger.available({ kind: 'user', id: userId, limited: true }),
      claims: await redis.zcard(`${prefix}claims`),
      journal: await redis.llen(`${prefix}journal`),
    };
  }

  const once = { quota: START - COST, used: COST, logs: 1, held: 0, pending: 0, available: START - COST, claims: 0, journal: 0 };

  it('releases the hold of a reservation whose instance died before settling', async () => {
    const { user, dying, r } = await setup();
    await dying.close();
    expect(await settledState(user.userId, r.traceId)).toEqual({ ...once, quota: START, used: 0, logs: 0, available: START });
  });

  it('writes, from the journal, a charge settled by an instance that died before writing it', async () => {
    const { user, dying, r, entry } = await setup();
    await dying.record(entry, r);
    await dying.close();
    expect(await settledState(user.userId, r.traceId)).toEqual(once);
  });

  it('takes over a claimed batch whose writer died before its transaction', async () => {
    const { user, dying, r } = await recordedAndClaimed();
    await dying.close();
    expect(await settledState(user.userId, r.traceId)).toEqual(once);
  });

  it('does not charge twice a batch whose writer died after its commit', async () => {
    const { user, dying, r, batch } = await recordedAndClaimed();
    await server.app.ctx.db.transaction().execute(async (trx) => {
      await writeEntries(trx, batch.entries, false, server.app.ctx.log);
      await dying.beforeCommit(batch);
    });
    // Died here: the claim was never ended.
    await dying.close();
    expect(await settledState(user.userId, r.traceId)).toEqual(once);
  });

  it('writes a batch whose writer moved the amounts in Redis but died before its commit', async () => {
    const { user, dying, r, batch } = await recordedAndClaimed();
    await expect(
      server.app.ctx.db.transaction().execute(async (trx) => {
        await writeEntries(trx, batch.entries, false, server.app.ctx.log);
        await dying.beforeCommit(batch);
        throw new Error('process killed before COMMIT');
      }),
    ).rejects.toThrow('process killed');
    await dying.close();
    expect(await settledState(user.userId, r.traceId)).toEqual(once);
  });

  it('applies a settle resent after a reconnect only once', async () => {
    const { user, dying, r, entry } = await setup();
    await dying.record(entry, r);
    await dying.record(entry, r);
    await dying.close();
    expect(await settledState(user.userId, r.traceId)).toEqual(once);
  });

  it('ends with every balance adding up to its records (ledger verifier)', () => expectNoDrift(server));
});
