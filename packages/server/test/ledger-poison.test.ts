// A poison row in a ledger batch (billing/ledger-quarantine.ts): call logs the database refuses, queued
// through the ledger's own API among good ones, on SQLite and PostgreSQL, and in Redis mode when
// TEST_REDIS_URL is set. Every charge lands exactly once, every good log lands, each refused log is
// stored without what was refused (or, when it cannot be identified, reported and left out), reported
// at error level without its texts and counted, and the batches after it flow as usual.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountRef, Reservation } from '../src/billing/ledger-types';
import { RedisLedgerStore } from '../src/billing/ledger-redis';
import { writeEntries } from '../src/billing/ledger-write';
import type { NewCallLog } from '../src/db/schema';
import { admin, holdFlushes, ledgerModes, ledgerUser, type TestServer } from './helpers';
import { callLog, pauseSchedule } from './stat-fixtures';

const COST = 1_000;
const START = 1_000_000;
/** Text a client sent: it may be stored, never logged. */
const PROMPT = 'PROMPT-MARKER tell nobody';

/** What a value the database refuses looks like where a test can put it (the gateway never builds these). */
const refused = <T>(v: unknown) => v as T;

describe.each(ledgerModes)('poison rows in a ledger batch (%s)', (_name, dialect, redis) => {
  let fx: Awaited<ReturnType<typeof ledgerUser>>;
  let server: TestServer;
  let prefix = '';
  let userId = 0;
  let account: AccountRef;

  beforeAll(async () => {
    // A short lease: the Redis case below lets an instance die and another take over its claims.
    fx = await ledgerUser(dialect, redis, 'poison', START, { REDIS_LEASE_S: '0.5' });
    ({ server, prefix, userId, account } = fx);
    // The statistics job flushes this instance's ledger every 10 s, and a flush in Redis mode takes every
    // instance's pending entries: it would take the dying store's below before the test's own take().
    await pauseSchedule(await admin(server));
  });

  afterAll(async () => {
    await fx?.close();
  });

  const trace = () => randomBytes(16).toString('hex');
  const log = (over: Partial<NewCallLog>) => callLog({ user_id: userId, req_time: Date.now(), total_price: COST, prompt: PROMPT, ...over });

  async function reserve(traceId: string): Promise<Reservation> {
    const r = await server.app.gateway.ledger.reserve(traceId, [account], 5 * COST);
    if (!('traceId' in r)) throw new Error('reservation refused');
    return r;
  }

  async function stored() {
    const { db } = server.app.ctx;
    const user = await db.selectFrom('users').select(['quota', 'used_quota']).where('user_id', '=', userId).executeTakeFirstOrThrow();
    const logs = await db.selectFrom('call_logs').selectAll().where('user_id', '=', userId).execute();
    return { quota: Number(user.quota), used: Number(user.used_quota), logs };
  }

  async function quarantinedCount(outcome: string): Promise<number> {
    const line = (await server.app.ctx.metrics.text()).split('\n').find((l) => l.startsWith(`fastgate_ledger_quarantined_total{outcome="${outcome}"}`));
    return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
  }

  it('writes the good rows and every charge, stores refused logs without what was refused, and reports them', async () => {
    const { ledger } = server.app.gateway;
    const good = Array.from({ length: 10 }, trace);
    const t = { nul: trace(), nan: trace(), unidentified: trace(), second: trace(), logOnly: trace() };

    const r = new Map<string, Reservation>();
    for (const id of [...good, t.nul, t.unidentified, t.second]) r.set(id, await reserve(id));

    // Queued in one go, so that one batch holds them all.
    for (const id of good.slice(0, 5)) ledger.settle(r.get(id)!, COST, [log({ trace_id: id })]);
    // A charged call whose log holds a NULL where the table allows none (and, for PostgreSQL, a NUL byte in its prompt).
    ledger.settle(r.get(t.nul)!, COST, [log({ trace_id: t.nul, err_msg: refused(null), prompt: dialect === 'postgres' ? `${PROMPT}\0` : PROMPT })]);
    // A charged call whose log cannot be identified (no trace id): it cannot be stored at all; its charge still lands.
    ledger.settle(r.get(t.unidentified)!, COST, [log({ trace_id: refused(null) })]);
    // A log-only entry with NaN in a number column (NULL once it went through Redis' JSON).
    ledger.log([log({ trace_id: t.nan, total_price: 0, duration: NaN })]);
    // Two attempts of one call: the first is fine, the second refused.
    ledger.settle(r.get(t.second)!, COST, [log({ trace_id: t.second, attempt: 0, status: 3 }), log({ trace_id: t.second, attempt: 1, status: refused(null) })]);
    for (const id of good.slice(5)) ledger.settle(r.get(id)!, COST, [log({ trace_id: id })]);
    ledger.log([log({ trace_id: t.logOnly, total_price: 0 })]);
    const before = { sanitized: await quarantinedCount('sanitized'), dropped: await quarantinedCount('dropped') };

    await ledger.flush();

    const charged = good.length + 3;
    const after = await stored();
    expect({ quota: after.quota, used: after.used }).toEqual({ quota: START - charged * COST, used: charged * COST });
    expect(await ledger.available(account)).toBe(START - charged * COST);
    expect(ledger.pending).toEqual({ debits: 0, logs: 0, reservations: 0 });
    const byTrace = (id: string) => after.logs.filter((l) => l.trace_id === id).sort((a, b) => a.attempt - b.attempt);
    for (const id of good) expect(byTrace(id)).toMatchObject([{ prompt: PROMPT, total_price: COST, status: 1 }]);
    expect(byTrace(t.logOnly)).toMatchObject([{ prompt: PROMPT }]);
    // Stored as minimal rows: the refused values and the call's content emptied, the rest kept.
    expect(byTrace(t.nul)).toMatchObject([{ err_msg: '', prompt: '', total_price: COST, model: 'gpt-a', status: 1 }]);
    expect(byTrace(t.nan)).toMatchObject([{ duration: 0, prompt: '', conn_time: 5 }]);
    expect(byTrace(t.second)).toMatchObject([
      { attempt: 0, status: 3, prompt: PROMPT },
      { attempt: 1, status: 0, prompt: '', total_price: COST },
    ]);
    expect(after.logs).toHaveLength(good.length + 5);

    expect(await quarantinedCount('sanitized')).toBe(before.sanitized + 3);
    expect(await quarantinedCount('dropped')).toBe(before.dropped + 1);
    const lines = server.logs.map((l) => JSON.parse(l) as Record<string, any>);
    expect(lines.filter((l) => l.msg === 'the database refused a ledger batch twice; writing it in parts to set aside what it refuses').length).toBeGreaterThanOrEqual(1);
    const reports = lines.filter((l) => l.level === 50 && String(l.msg).startsWith('the database refused a call log'));
    expect(reports.map((l) => `${l.trace_id}:${l.outcome}`).sort()).toEqual([`${t.nan}:sanitized`, `${t.nul}:sanitized`, `${t.second}:sanitized`, 'null:dropped'].sort());
    const dropped = reports.find((l) => l.outcome === 'dropped')!;
    expect(dropped).toMatchObject({ user_id: userId, charge: [{ account: `user:${userId}`, amount: COST }], db_error: { message: expect.stringMatching(/null|NULL/) } });
    expect(typeof dropped.log_id).toBe('string');
    // Nothing a client sent reaches the server's log, not even inside the database's error.
    expect(server.logs.join('\n')).not.toContain('PROMPT-MARKER');

    if (redis) {
      const r = server.app.ctx.redis!.client;
      const [held, pending] = await r.hmget(`${prefix}bal:user:${userId}`, 'held', 'pending');
      expect({ held: Number(held ?? 0), pending: Number(pending ?? 0), claims: await r.zcard(`${prefix}claims`), journal: await r.llen(`${prefix}journal`) }).toEqual({
        held: 0,
        pending: 0,
        claims: 0,
        journal: 0,
      });
    }
  });

  it('writes the next batches whole, as before', async () => {
    const { ledger } = server.app.gateway;
    const start = await stored();
    const isolations = () => server.logs.filter((l) => l.includes('refused a ledger batch twice')).length;
    const seen = isolations();
    const ids = [trace(), trace()];
    for (const id of ids) ledger.settle(await reserve(id), COST, [log({ trace_id: id })]);
    await ledger.flush();
    const now = await stored();
    expect(now.quota).toBe(start.quota - 2 * COST);
    expect(now.logs.filter((l) => ids.includes(l.trace_id))).toHaveLength(2);
    expect(isolations()).toBe(seen);
  });

  it.runIf(redis)('writes each part of a split batch once when its writer dies between the parts', async () => {
    const { ctx, gateway } = server.app;
    const start = await stored();
    const dying = new RedisLedgerStore(ctx, ctx.redis!, gateway.snapshot, { maxBatch: 200, tick: () => undefined });
    // Until the dying store has claimed its entries (CI saw this instance's tick take them first).
    const release = holdFlushes(server);
    const ids = [trace(), trace()];
    for (const id of ids) {
      const r: Reservation = { traceId: id, accounts: [account], amount: 5 * COST, settled: false };
      expect(await dying.reserve(r)).toBeUndefined();
      await dying.record({ debits: [{ account, amount: COST }], logs: [log({ trace_id: id })] }, r);
    }
    const batch = (await dying.take())!;
    release();
    expect(batch.entries).toHaveLength(2);
    const [first] = await dying.split(batch, [[batch.entries[0]!], [batch.entries[1]!]]);
    let totals: Awaited<ReturnType<typeof writeEntries>> = [];
    await ctx.db.transaction().execute(async (trx) => {
      totals = await writeEntries(trx, first!.entries, false, ctx.log);
      await dying.beforeCommit(first!);
    });
    await dying.afterCommit(first!, totals);
    // Died here, the second part claimed and not written.
    await dying.close();
    await new Promise((r) => setTimeout(r, 1000));
    await gateway.ledger.flush();

    const now = await stored();
    expect(now.quota).toBe(start.quota - 2 * COST);
    expect(now.logs.filter((l) => ids.includes(l.trace_id)).map((l) => l.trace_id).sort()).toEqual([...ids].sort());
    const r = ctx.redis!.client;
    const [held, pending] = await r.hmget(`${prefix}bal:user:${userId}`, 'held', 'pending');
    expect({ held: Number(held ?? 0), pending: Number(pending ?? 0), claims: await r.zcard(`${prefix}claims`) }).toEqual({ held: 0, pending: 0, claims: 0 });
    expect(await gateway.ledger.available(account)).toBe(now.quota);
  });
});
