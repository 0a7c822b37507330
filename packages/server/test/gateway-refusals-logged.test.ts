// Issue 15 part 6: calls refused after the app key was recognised (unknown model, model not allowed,
// quota, rate limit) are in the chat log as failed with their reason and count as abnormal; they cost
// nothing. Unknown keys stay unlogged, and so does count_tokens (no call).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, expectNoDrift, setQuota } from './helpers';
import { settled, world, type World } from './gateway-fixtures';
import { pauseSchedule, runStats } from './stat-fixtures';

const ask = (w: World, model: string) => w.openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 8 });

describe.each(dialects)('refused gateway calls in the call log on %s', (dialect) => {
  let w: World;
  let keyId: string;
  const rowsOf = async (model: string) => {
    await w.flush();
    return w.server.app.ctx.db.selectFrom('call_logs').selectAll().where('model', '=', model).orderBy('req_time').execute();
  };
  const configureKey = async (settings: Record<string, unknown>) => {
    expect((await w.user.post('/api/v1/app/key/config', { id: keyId, ...settings })).body.code).toBe(0);
    await settled(w);
  };

  beforeAll(async () => {
    w = await world(dialect);
    await pauseSchedule(w.admin);
    keyId = (await w.server.app.ctx.db.selectFrom('app_keys').select('id').where('app_id', '=', w.appId).executeTakeFirstOrThrow()).id;
  });
  afterAll(() => w?.close());

  it('logs six unknown-model calls as six failed, free rows, shown in the chat log and counted abnormal', async () => {
    const quota = await w.quotaOf(w.user.userId);
    for (let i = 0; i < 6; i++) await expect(ask(w, 'no-such-model')).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    const rows = await rowsOf('no-such-model');
    expect(rows).toHaveLength(6);
    for (const r of rows) {
      expect(r).toMatchObject({ status: -1, total_price: 0, user_id: w.user.userId, app_id: w.appId, app_key_id: keyId, type: 1, endpoint: '/v1/chat/completions', model_id: '' });
      expect(r.err_msg).toBe('model_not_found: The model `no-such-model` does not exist or you do not have access to it.');
    }
    expect(new Set(rows.map((r) => r.trace_id)).size).toBe(6);

    // The user's chat log lists them as failed; the detail carries the reason.
    const page = await w.user.post('/api/v1/log/chat/page', { pageSize: 100, status: -1 });
    expect(page.body.code).toBe(0);
    const items = page.body.data.items as { id: string; model: string; status: number; total_price: number }[];
    expect(items.filter((x) => x.model === 'no-such-model')).toHaveLength(6);
    const detail = await w.user.get('/api/v1/log/chat/detail', { id: items[0]!.id });
    expect(detail.body.code).toBe(0);
    expect(detail.body.data).toMatchObject({ status: -1, model: 'no-such-model' });
    expect(detail.body.data.err_msg).toContain('does not exist');

    // The dashboard's abnormal figure and the statistics count them; the balance did not move.
    await runStats(w.server);
    const today = (await w.user.get('/api/v1/dashboard/call/data/7')).body.data.items.at(-1);
    expect(today).toMatchObject({ call: 6, abnormal: 6, spend: 0 });
    const stat = await w.server.app.ctx.db.selectFrom('stat_user_day').select(['total', 'abnormal', 'spend']).where('user_id', '=', w.user.userId).executeTakeFirstOrThrow();
    expect([stat.total, stat.abnormal, stat.spend].map(Number)).toEqual([6, 6, 0]);
    expect(await w.quotaOf(w.user.userId)).toBe(quota);
  });

  it('logs a model the key may not use', async () => {
    const other = await w.admin.post('/api/v1/model/create', { corp: w.corp, name: 'gpt-other', model: 'gpt-other', type: 1, is_public: true, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 1 } });
    expect(other.body.code).toBe(0);
    await configureKey({ models: [w.model] });
    try {
      await expect(ask(w, 'gpt-other')).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    } finally {
      await configureKey({ models: [] });
    }
    const rows = await rowsOf('gpt-other');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: -1, total_price: 0, app_key_id: keyId });
    expect(rows[0]!.err_msg).toMatch(/^model_not_found: /);
  });

  it('logs a call the balance cannot pay, charging nothing', async () => {
    const quota = await w.quotaOf(w.user.userId);
    await setQuota(w.server, w.user.userId, 0);
    await w.server.app.gateway.snapshot.reload('users', [String(w.user.userId)]);
    try {
      await expect(ask(w, 'gpt-test')).rejects.toMatchObject({ status: 429, code: 'insufficient_quota' });
      expect(await w.quotaOf(w.user.userId)).toBe(0);
    } finally {
      await setQuota(w.server, w.user.userId, quota);
      await w.server.app.gateway.snapshot.reload('users', [String(w.user.userId)]);
    }
    const rows = (await rowsOf('gpt-test')).filter((r) => r.status === -1);
    expect(rows).toHaveLength(1);
    // The model was found: the row names it.
    expect(rows[0]).toMatchObject({ total_price: 0, model_id: w.model, name: 'gpt-test', app_key_id: keyId });
    expect(rows[0]!.err_msg).toBe('insufficient_quota: You exceeded your current quota, please recharge.');
  });

  it('logs rate-limited calls', async () => {
    const before = (await rowsOf('gpt-test')).length;
    await configureKey({ rate_limits: { rpm: 2 } });
    try {
      await ask(w, 'gpt-test');
      await ask(w, 'gpt-test');
      for (let i = 0; i < 3; i++) await expect(ask(w, 'gpt-test')).rejects.toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    } finally {
      await configureKey({ rate_limits: { rpm: 0 } });
    }
    const rows = (await rowsOf('gpt-test')).slice(before);
    expect(rows.map((r) => r.status)).toEqual([1, 1, -1, -1, -1]);
    for (const r of rows.slice(2)) expect(r.err_msg).toMatch(/^rate_limit_exceeded: Rate limit reached/);
  });

  it('bounds the rows a key can write by spamming refusals', async () => {
    const sent = 40;
    await Promise.all(Array.from({ length: sent }, () => expect(ask(w, 'spam-model')).rejects.toMatchObject({ status: 404 })));
    const rows = await rowsOf('spam-model');
    // At most the burst of ten model_not_found rows (partly spent above) and one more a second.
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.length).toBeLessThan(sent / 2);
    expect(rows.every((r) => r.status === -1 && r.total_price === 0)).toBe(true);
  });

  it('logs neither unknown keys nor count_tokens', async () => {
    const bad = await fetch(`${w.server.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer sk-unknown', 'content-type': 'application/json' }, body: JSON.stringify({ model: 'nobody-model', messages: [{ role: 'user', content: 'hi' }] }) });
    expect(bad.status).toBe(401);
    const count = await fetch(`${w.server.url}/v1/messages/count_tokens`, { method: 'POST', headers: { 'x-api-key': w.key, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'count-model', messages: [{ role: 'user', content: 'hi' }] }) });
    expect(count.status).toBe(404);
    expect(await rowsOf('nobody-model')).toHaveLength(0);
    expect(await rowsOf('count-model')).toHaveLength(0);
    await expectNoDrift(w.server);
  });
});
