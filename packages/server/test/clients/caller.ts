// A caller of its own (user, quota, app key) per client run, so runs can go in parallel and each one's
// bill is exactly its own: the quota it lost and the call logs written for it.
import { expect } from 'vitest';
import { randomId } from '../../src/providers/shape';
import { signedIn } from '../helpers';
import { settled, type World } from '../gateway-fixtures';

export interface Caller {
  key: string;
  userId: number;
}

export async function newCaller(w: World, quota = 1_000_000): Promise<Caller> {
  const user = await signedIn(w.server, 'user', `${randomId('client-').slice(0, 20)}@example.com`);
  await w.server.app.ctx.db.updateTable('users').set({ quota }).where('user_id', '=', user.userId).execute();
  await w.server.app.gateway.snapshot.reload('users', [String(user.userId)]);
  const app = await user.post('/api/v1/app/create', { name: 'Client run', is_create_key: true });
  if (app.body.code !== 0) throw new Error(`app: ${app.body.message}`);
  await settled(w);
  return { key: app.body.data.key as string, userId: user.userId };
}

export interface BillMark {
  quota: number;
  logIds: Set<string>;
}

const logsOf = (w: World, c: Caller) => w.server.app.ctx.db.selectFrom('call_logs').selectAll().where('user_id', '=', c.userId).execute();

/** Where the caller's bill stands now: later calls are measured from here. */
export async function markBill(w: World, c: Caller): Promise<BillMark> {
  await w.flush();
  return { quota: await w.quotaOf(c.userId), logIds: new Set((await logsOf(w, c)).map((l) => l.id)) };
}

/**
 * The calls made since `mark` were billed and logged: at least `min` successful logs, each on `path`
 * (a string, or a pattern for paths that carry the model) for `model`, and the quota fell by exactly
 * the sum of their prices, which is above zero. A stream may settle a moment after its last byte
 * reached the client, so this waits (briefly) for the logs to appear.
 */
export async function expectBilled(w: World, c: Caller, mark: BillMark, expected: { path: string | RegExp; model: string; min?: number }) {
  const min = expected.min ?? 1;
  let fresh: Awaited<ReturnType<typeof logsOf>> = [];
  for (let i = 0; i < 40; i++) {
    await w.flush();
    fresh = (await logsOf(w, c)).filter((l) => !mark.logIds.has(l.id));
    if (fresh.length >= min) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(fresh.length, 'call logs written').toBeGreaterThanOrEqual(min);
  for (const log of fresh) {
    expect(log, `call log ${log.endpoint}`).toMatchObject({ status: 1, model: expected.model });
    expect(log.endpoint).toMatch(typeof expected.path === 'string' ? new RegExp(`^${expected.path.replace(/[.?*+^$[\]\\(){}|-]/g, '\\$&')}$`) : expected.path);
  }
  const logged = fresh.reduce((sum, l) => sum + Number(l.total_price), 0);
  expect(logged).toBeGreaterThan(0);
  expect(mark.quota - (await w.quotaOf(c.userId)), 'quota spent = logged price').toBe(logged);
  return fresh;
}
