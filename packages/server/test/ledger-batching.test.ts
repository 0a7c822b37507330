// When the ledger writes (billing/ledger.ts): a batch goes once FLUSH_MS have passed since the first
// entry waiting, or at once when maxBatch entries wait; calls settling while a batch is being written wait
// for the next one, all together. A flush asked for while one already waits to start joins it: under load
// every settlement past the threshold asked for one, and each ran after the last, writing the handful of
// calls that had settled meanwhile (two thirds of the batches at 64 calls in flight held under 50 rows),
// each a transaction, a commit and a round trip to the SQLite writer thread of its own.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Ledger } from '../src/billing/ledger';
import { memoryLedgerStore } from '../src/billing/ledger-memory';
import type { LedgerStoreFactory, Reservation } from '../src/billing/ledger-types';
import { startServer, type TestServer } from './helpers';
import { callLog } from './stat-fixtures';

describe('when the ledger writes its batches (SQLite)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer('sqlite');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('writes what settles during a batch in one batch after it, and nothing before its time', async () => {
    const { ctx, gateway } = server.app;
    /** Entries per batch the store handed out, in order. */
    const taken: number[] = [];
    /** Each batch's transaction waits here before it commits, until the test lets it go. */
    const gates: (() => void)[] = [];
    const counting: LedgerStoreFactory = (c, balances, tick) => {
      const store = memoryLedgerStore(c, balances, tick);
      const take = store.take.bind(store);
      store.take = async () => {
        const batch = await take();
        if (batch) taken.push(batch.entries.length);
        return batch;
      };
      store.beforeCommit = () => new Promise<void>((resolve) => gates.push(resolve));
      return store;
    };
    // No writer thread: the batches run on the main connection, where beforeCommit holds them open.
    const ledger = new Ledger(ctx, gateway.snapshot, counting, { flushMs: 60_000, maxBatch: 4 });
    const entry = () => ledger.log([callLog({ user_id: 1, req_time: Date.now() })]);
    const until = (what: () => boolean) => vi.waitFor(() => expect(what()).toBe(true), { timeout: 1000, interval: 5 });
    const tick = () => new Promise((r) => setImmediate(r));

    // The threshold: the first batch goes at once, and is held open.
    for (let i = 0; i < 4; i++) entry();
    await until(() => gates.length === 1);
    expect(taken).toEqual([4]);
    // Six calls settle meanwhile, one turn of the event loop apart: the fourth reaches the threshold again.
    for (let i = 0; i < 6; i++) {
      entry();
      await tick();
    }
    gates.shift()!();
    // They are written together, next.
    await until(() => gates.length === 1);
    expect(taken).toEqual([4, 6]);
    // One more settles during that batch: under the threshold, it waits for its time (a minute here).
    entry();
    await tick();
    gates.shift()!();
    await until(() => taken.length === 2 && gates.length === 0);
    await new Promise((r) => setTimeout(r, 100));
    expect(taken).toEqual([4, 6]);
    // Until somebody asks.
    const flushed = ledger.flush();
    await until(() => gates.length === 1);
    gates.shift()!();
    await flushed;
    expect(taken).toEqual([4, 6, 1]);
    await ledger.close();
  });

  it('settles a call whose store failed to take its entry, and logs the failure', async () => {
    const { ctx, gateway } = server.app;
    // The memory store takes an entry before it returns, without a promise: a failure there is a throw.
    const failing: LedgerStoreFactory = (c, balances, tick) => {
      const store = memoryLedgerStore(c, balances, tick);
      store.record = () => {
        throw new Error('the store broke');
      };
      return store;
    };
    const ledger = new Ledger(ctx, gateway.snapshot, failing, { flushMs: 60_000 });
    const logged = vi.spyOn(ctx.log, 'error');
    try {
      const held = await ledger.reserve('trace-store-broke', [], 10);
      expect('refused' in held).toBe(false);
      await expect(ledger.settle(held as Reservation, 10, [])).resolves.toBeUndefined();
      expect(logged).toHaveBeenCalledWith(expect.objectContaining({ err: expect.objectContaining({ message: 'the store broke' }) }), 'recording a charge failed');
    } finally {
      logged.mockRestore();
      await ledger.close();
    }
  });
});
