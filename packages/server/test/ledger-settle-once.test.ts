// A reservation is settled once (billing/ledger.ts): a second settle, or a refund after the settle, of
// the same reservation charges nothing more and writes no more logs, on SQLite, PostgreSQL and in Redis
// mode when TEST_REDIS_URL is set. The reservation itself carries that state: the ledger keeps no
// memory of past calls (it held the last 100,000 trace ids for this, ~7 MB of a busy process's heap).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountRef } from '../src/billing/ledger-types';
import { ledgerModes, ledgerUser, type TestServer } from './helpers';
import { callLog } from './stat-fixtures';

const COST = 1_000;
const START = 1_000_000;

describe.each(ledgerModes)('settling a reservation once (%s)', (_name, dialect, redis) => {
  let fx: Awaited<ReturnType<typeof ledgerUser>>;
  let server: TestServer;
  let userId = 0;
  let account: AccountRef;

  beforeAll(async () => {
    fx = await ledgerUser(dialect, redis, 'once', START);
    ({ server, userId, account } = fx);
  });

  afterAll(async () => {
    await fx?.close();
  });

  it('charges and logs the first settle only', async () => {
    const { ledger } = server.app.gateway;
    const log = (traceId: string, price: number) => callLog({ trace_id: traceId, user_id: userId, req_time: Date.now(), total_price: price });
    const traces = [randomBytes(16).toString('hex'), randomBytes(16).toString('hex')];
    for (const [i, traceId] of traces.entries()) {
      const r = await ledger.reserve(traceId, [account], 5 * COST);
      if (!('traceId' in r)) throw new Error('reservation refused');
      await ledger.settle(r, COST, [log(traceId, COST)]);
      // The same reservation again: settled with another cost, or refunded.
      if (i === 0) await ledger.settle(r, 3 * COST, [log(traceId, 3 * COST)]);
      else await ledger.refund(r, [log(traceId, 0)]);
    }
    await ledger.flush();

    const { db } = server.app.ctx;
    const user = await db.selectFrom('users').select(['quota', 'used_quota']).where('user_id', '=', userId).executeTakeFirstOrThrow();
    const logs = await db.selectFrom('call_logs').select(['trace_id', 'total_price']).where('user_id', '=', userId).execute();
    expect(Number(user.quota)).toBe(START - 2 * COST);
    expect(Number(user.used_quota)).toBe(2 * COST);
    expect(logs.map((l) => [l.trace_id, Number(l.total_price)]).sort()).toEqual(traces.map((t) => [t, COST]).sort());
    expect(await ledger.available(account)).toBe(START - 2 * COST);
  });
});
