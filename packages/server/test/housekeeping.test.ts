// Retention (docs/SPEC.md §3.15 log retention days): old call logs leave in small batches, newer ones stay, the
// gateway keeps writing meanwhile, and sessions and codes are still cleaned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewCallLog } from '../src/db/schema';
import { newId } from '../src/http/ids';
import { purgeCallLogs } from '../src/jobs/call-log-purge';
import { housekeep } from '../src/jobs/housekeeping';
import { setSysSection } from '../src/settings/sys-config';
import { world, type World } from './gateway-fixtures';
import { dialects } from './helpers';

const DAY = 86_400_000;

function oldLog(userId: number, reqTime: number): NewCallLog {
  const id = newId();
  return {
    id, trace_id: `hk-${id}`, attempt: 0, user_id: userId, app_id: 1, rid: 0, type: 1, stream: 0, is_enable_model_agent: 0, is_retry: 0, retry_count: 0,
    is_smart_match: 0, status: 1, prompt_tokens: 1, completion_tokens: 1, cached_tokens: 0, total_tokens: 2, total_price: 3, discount_bp: 10_000,
    conn_time: 1, duration: 1, total_time: 2, internal_time: 0, req_time: reqTime, created_at: reqTime, prompt_ratio: 1, completion_ratio: 1,
    endpoint: '/v1/chat/completions', creator: '', app_key_id: '', corp: '', corp_name: '', group_id: '', group_name: '', model_id: '', name: 'm',
    model: 'm', real_model_id: '', real_model: 'm', model_agent_id: '', model_agent_name: '', key_id: '', key_mask: '', client_ip: '', remote_ip: '',
    err_msg: '', prompt: 'old', completion: '', messages: '',
  };
}

describe.each(dialects)('log retention on %s', (dialect) => {
  let w: World;
  const count = async () => Number((await w.server.app.ctx.db.selectFrom('call_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const seed = async (n: number, reqTime: (i: number) => number) => {
    const rows = Array.from({ length: n }, (_, i) => oldLog(w.user.userId, reqTime(i)));
    for (let i = 0; i < rows.length; i += 250) await w.server.app.ctx.db.insertInto('call_logs').values(rows.slice(i, i + 250)).execute();
  };

  beforeAll(async () => {
    w = await world(dialect);
  });
  afterAll(() => w?.close());

  it('deletes logs past chat_reserve days in batches while the gateway keeps writing', async () => {
    const db = w.server.app.ctx.db;
    const now = Date.now();
    await db.deleteFrom('call_logs').execute();
    // 2,500 logs past 30 days (many sharing a request time), 20 within.
    await seed(2500, (i) => now - 40 * DAY - Math.floor(i / 3));
    await seed(20, (i) => now - 29 * DAY + i);
    await setSysSection(db, 'log', { chat_reserve: 30 });
    // Expired sessions and old codes still go.
    await db.insertInto('sessions').values({ token_hash: `gone-${newId()}`, user_id: w.user.userId, role: 'user', ip: '', expires_at: now - 1000, created_at: now - DAY }).execute();

    let batches = 0;
    let gatewayCall: Promise<unknown> | undefined;
    const { logs } = await housekeep(w.server.app.ctx, now, {
      batch: 500,
      pauseMs: 1,
      stopped: () => {
        batches++;
        // A gateway call made while the purge runs goes through and its log is written.
        if (batches === 3) gatewayCall = w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'during purge' }] }).then(() => w.flush());
        return false;
      },
    });
    await gatewayCall;
    expect(logs).toBe(2500);
    // Five full batches of 500, then one that finds nothing.
    expect(batches).toBe(6);
    expect(await count()).toBe(21);
    expect(await db.selectFrom('call_logs').select('id').where('req_time', '<', now - 30 * DAY).execute()).toEqual([]);
    expect(await db.selectFrom('call_logs').select('id').where('prompt', 'like', '%during purge%').execute()).toHaveLength(1);
    expect(await db.selectFrom('sessions').select('token_hash').where('expires_at', '<', now).execute()).toEqual([]);
  });

  it('keeps everything when retention is 0, and stops between batches when asked', async () => {
    const db = w.server.app.ctx.db;
    const now = Date.now();
    await db.deleteFrom('call_logs').execute();
    await seed(1200, (i) => now - 400 * DAY + i);
    await setSysSection(db, 'log', { chat_reserve: 0 });
    expect((await housekeep(w.server.app.ctx, now)).logs).toBe(0);
    expect(await count()).toBe(1200);

    let checks = 0;
    const deleted = await purgeCallLogs(w.server.app.ctx, (q) => q.where('req_time', '<', now), { batch: 100, pauseMs: 0, stopped: () => ++checks > 3 });
    expect(deleted).toBe(300);
    expect(await count()).toBe(900);
    // The oldest went first.
    const oldest = await db.selectFrom('call_logs').select('req_time').orderBy('req_time').executeTakeFirstOrThrow();
    expect(oldest.req_time).toBe(now - 400 * DAY + 300);
    // The default batch is 1000 rows per statement.
    await setSysSection(db, 'log', { chat_reserve: 90 });
    expect((await housekeep(w.server.app.ctx, now)).logs).toBe(900);
    expect(await count()).toBe(0);
  });
});
