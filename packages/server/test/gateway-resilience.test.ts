import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dialects, expectNoDrift } from './helpers';
import { PROVIDER_KEYS, resetUpstreams, settled, world, type World } from './gateway-fixtures';

const ask = (w: World, content = 'ping', model = 'gpt-test') => w.openai.chat.completions.create({ model, messages: [{ role: 'user', content }] });

describe.each(dialects)('gateway retries, disabling and fallback on %s', (dialect) => {
  let w: World;

  beforeAll(async () => {
    w = await world(dialect);
  });
  afterAll(() => w?.close());
  // Every test starts with all keys and agents enabled and no faults.
  beforeEach(() => resetUpstreams(w));

  it('retries onto the second key after a 500 and logs both attempts', async () => {
    w.mock.faults.add({ key: PROVIDER_KEYS[0]!, status: 500, error: 'upstream exploded', times: 1 });
    w.mock.faults.add({ key: PROVIDER_KEYS[1]!, status: 500, error: 'upstream exploded', times: 1 });
    const r = await ask(w, 'retry me');
    expect(r.choices[0]!.message.content).toContain('retry me');
    const keys = w.mock.requests.map((q) => q.key);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(new Set(keys.slice(0, 2)).size).toBe(2);
    await w.flush();
    const logs = await w.server.app.ctx.db.selectFrom('call_logs').selectAll().where('prompt', 'like', '%retry me%').orderBy('attempt').execute();
    expect(logs.map((l) => l.status)).toEqual([...logs.slice(0, -1).map(() => 3), 1]);
    expect(logs[0]!.err_msg).toContain('upstream exploded');
    expect(new Set(logs.map((l) => l.trace_id)).size).toBe(1);
    // Only the successful attempt is charged.
    expect(logs.filter((l) => l.total_price > 0)).toHaveLength(1);
  });

  it('auto-disables a key after a 401, stores the reason and moves on', async () => {
    w.mock.faults.add({ key: PROVIDER_KEYS[0]!, status: 401, error: 'Incorrect API key provided: sk-mock***' });
    for (let i = 0; i < 3; i++) expect((await ask(w)).choices).toHaveLength(1);
    // The key leaves rotation at once; its row is written after the call answered (a loaded database takes a while).
    const stored = () => w.server.app.ctx.db.selectFrom('provider_keys').selectAll().orderBy('created_at').execute();
    await expect.poll(async () => (await stored()).filter((k) => k.status === 2).length, { timeout: 5000 }).toBe(1);
    const keys = await stored();
    const dead = keys.find((k) => k.status === 2)!;
    expect(dead).toBeTruthy();
    expect(dead.is_auto_disabled).toBe(1);
    expect(dead.auto_disabled_reason).toContain('Incorrect API key');
    expect(keys.filter((k) => k.status === 1)).toHaveLength(1);
    // The console shows it.
    const page = await w.admin.post('/api/v1/key/page', { type: 2 });
    expect(page.body.data.items.some((k: { is_auto_disabled: boolean; auto_disabled_reason: string }) => k.is_auto_disabled && k.auto_disabled_reason.includes('Incorrect'))).toBe(true);
  });

  // Transient errors no longer disable keys: they open circuit breakers (breakers.test.ts).
  it('puts auto-disabled keys back by the auto-enable rules', async () => {
    w.mock.faults.add({ key: PROVIDER_KEYS[0]!, status: 401, error: 'Incorrect API key provided', times: 1 });
    w.mock.faults.add({ key: PROVIDER_KEYS[1]!, status: 401, error: 'Incorrect API key provided', times: 1 });
    // Both keys die; the client is not told 401 (its own key is fine) but that nothing is available.
    await expect(ask(w)).rejects.toMatchObject({ status: 503 });
    // The rows are written after the call answered (a loaded database takes a while).
    const db = w.server.app.ctx.db;
    await expect.poll(async () => (await db.selectFrom('provider_keys').select(['status', 'is_auto_disabled']).execute()).every((k) => k.status === 2 && k.is_auto_disabled === 1), { timeout: 5000 }).toBe(true);
    await expect.poll(async () => (await db.selectFrom('model_agents').select('auto_disabled_reason').executeTakeFirstOrThrow()).auto_disabled_reason, { timeout: 5000 }).toBe('no available model agent key');
    await settled(w);
    // A rule for another reason leaves them; a matching one brings keys and agent back.
    expect(await w.server.app.gateway.health.enable({ cron: '* * * * *', enable_time: 0, error: 'quota' })).toBe(0);
    expect(await w.server.app.gateway.health.enable({ cron: '* * * * *', enable_time: 0, error: 'Incorrect API key' })).toBe(2);
    await settled(w);
    expect((await ask(w)).choices).toHaveLength(1);
  });

  it('falls back to the fallback model when every agent fails', async () => {
    // A second model on its own agent, as the fallback.
    const backup = (await w.admin.post('/api/v1/model/create', { corp: w.corp, name: 'backup', model: 'backup-model', type: 1, is_enable_model_agent: true, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 1 } })).body.data.id;
    await w.admin.post('/api/v1/model/agent/create', { corp: w.corp, name: 'backup agent', base_url: w.mock.url, models: [backup], key: 'sk-backup-upstream-key' });
    const base = { id: w.model, corp: w.corp, name: 'gpt-test', model: 'gpt-test', type: 1, is_public: true, is_enable_model_agent: true, model_agents: [w.agent], text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 } };
    const upd = await w.admin.post('/api/v1/model/update', { ...base, is_enable_fallback: true, fallback_config: { model_agent: '', model: backup } });
    expect(upd.body).toMatchObject({ code: 0 });
    await settled(w);
    for (const key of PROVIDER_KEYS) w.mock.faults.add({ key, status: 503, error: 'overloaded' });
    const r = await ask(w, 'save me');
    expect(r.choices[0]!.message.content).toBe('Hello from mock backup-model! You said: save me');
    // The client still sees the model it asked for.
    expect(r.model).toBe('gpt-test');
    await w.admin.post('/api/v1/model/update', { ...base, is_enable_fallback: false });
    await settled(w);
  });

  it('fails cleanly with an OpenAI error when nothing works, charging nothing', async () => {
    for (const key of PROVIDER_KEYS) w.mock.faults.add({ key, status: 503, error: 'overloaded' });
    await w.flush();
    const before = await w.quotaOf(w.user.userId);
    await expect(ask(w, 'doomed')).rejects.toMatchObject({ status: 503 });
    await w.flush();
    expect(await w.quotaOf(w.user.userId)).toBe(before);
    const last = await w.server.app.ctx.db.selectFrom('call_logs').selectAll().where('prompt', 'like', '%doomed%').orderBy('attempt', 'desc').executeTakeFirstOrThrow();
    expect(last.status).toBe(-1);
  });

  it('does not retry a 400 (the request itself is wrong)', async () => {
    w.mock.faults.add({ key: PROVIDER_KEYS[0]!, status: 400, error: 'bad request' });
    w.mock.faults.add({ key: PROVIDER_KEYS[1]!, status: 400, error: 'bad request' });
    await expect(ask(w)).rejects.toMatchObject({ status: 400 });
    expect(w.mock.requests).toHaveLength(1);
  });

  it('rejects a blacklisted IP with 403 before any upstream call', async () => {
    const id = (await w.server.app.ctx.db.selectFrom('app_keys').select('id').where('app_id', '=', w.appId).executeTakeFirstOrThrow()).id;
    const cfg = await w.user.post('/api/v1/app/key/config', { id, ip_blacklist: '127.0.0.0/8' });
    expect(cfg.body.code).toBe(0);
    await settled(w);
    await expect(ask(w)).rejects.toMatchObject({ status: 403, code: 'ip_forbidden' });
    expect(w.mock.requests).toHaveLength(0);
    await w.user.post('/api/v1/app/key/config', { id, ip_blacklist: '' });
    await settled(w);
    expect((await ask(w)).choices).toHaveLength(1);
    // The account's own whitelist (wildcards allowed) applies to all its keys.
    await w.server.app.ctx.db.updateTable('users').set({ ip_whitelist: JSON.stringify(['10.*.*.*']) }).where('user_id', '=', w.user.userId).execute();
    await w.server.app.gateway.snapshot.reload('users', [String(w.user.userId)]);
    await expect(ask(w)).rejects.toMatchObject({ status: 403, code: 'ip_forbidden' });
    await w.server.app.ctx.db.updateTable('users').set({ ip_whitelist: '[]' }).where('user_id', '=', w.user.userId).execute();
    await w.server.app.gateway.snapshot.reload('users', [String(w.user.userId)]);
  });

  it('bills an aborted stream for what was sent', async () => {
    await w.flush();
    const before = await w.quotaOf(w.user.userId);
    const ac = new AbortController();
    const stream = await w.openai.chat.completions.create(
      { model: 'gpt-test', messages: [{ role: 'user', content: '[[mock:chunk_delay=100]] abort me please now' }], stream: true },
      { signal: ac.signal },
    );
    let got = '';
    // The SDK ends the iteration quietly on abort.
    for await (const chunk of stream) {
      got += chunk.choices[0]?.delta.content ?? '';
      if (got.split(' ').length > 3) {
        ac.abort();
        break;
      }
    }
    expect(got.length).toBeGreaterThan(0);
    // The server learns of the abort when the socket closes, then settles and queues the row: wait for it.
    const aborted = async () => {
      await w.flush();
      return w.server.app.ctx.db.selectFrom('call_logs').selectAll().where('prompt', 'like', '%abort me%').executeTakeFirst();
    };
    await expect.poll(aborted, { timeout: 5000 }).toBeTruthy();
    const log = (await aborted())!;
    expect(log.status).toBe(2);
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(log.completion.length).toBeLessThan('Hello from mock gpt-test! You said: abort me please now'.length);
    expect(log.total_price).toBeGreaterThan(0);
    expect(await w.quotaOf(w.user.userId)).toBe(before - log.total_price);
  });

  it('ends with every balance adding up to its records (ledger verifier)', () => expectNoDrift(w.server));
});

describe.each(dialects)('gateway quota and limits on %s', (dialect) => {
  it('never overdraws when 100 calls race for a balance that covers 40', async () => {
    const w = await world(dialect, { quota: 40 * 1000, textQuota: { billing_method: 2, fixed_quota: 1000 } });
    try {
      const results = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => ask(w, `race ${i}`)));
      const ok = results.filter((r) => r.status === 'fulfilled').length;
      const refused = results.filter((r) => r.status === 'rejected');
      expect(ok).toBe(40);
      expect(refused.every((r) => (r as PromiseRejectedResult).reason instanceof OpenAI.APIError && (r as PromiseRejectedResult).reason.status === 429)).toBe(true);
      await w.flush();
      expect(await w.quotaOf(w.user.userId)).toBe(0);
      await expectNoDrift(w.server);
    } finally {
      await w.close();
    }
  });

  it('enforces the app key\'s own RPM and the user\'s TPM', async () => {
    const w = await world(dialect);
    try {
      const id = (await w.server.app.ctx.db.selectFrom('app_keys').select('id').where('app_id', '=', w.appId).executeTakeFirstOrThrow()).id;
      expect((await w.user.post('/api/v1/app/key/config', { id, rate_limits: { rpm: 2 } })).body.code).toBe(0);
      const detail = (await w.user.get('/api/v1/key/detail', { id })).body.data;
      expect(detail.rate_limits).toEqual({ rpm: 2 });
      await settled(w);
      await ask(w);
      await ask(w);
      await expect(ask(w)).rejects.toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
      await w.user.post('/api/v1/app/key/config', { id, rate_limits: { rpm: 0 } });
      // The user's token budget: the first call spends it, the next is refused.
      await w.server.app.ctx.db.updateTable('users').set({ rate_limits: JSON.stringify({ tpm: 5 }) }).where('user_id', '=', w.user.userId).execute();
      await w.server.app.gateway.snapshot.reload('users', [String(w.user.userId)]);
      await settled(w);
      await ask(w);
      await new Promise((r) => setTimeout(r, 20));
      await expect(ask(w)).rejects.toMatchObject({ status: 429 });
    } finally {
      await w.close();
    }
  });

  it('answers 429 with retry-after when the group RPM is exceeded', async () => {
    const w = await world(dialect);
    try {
      const g = await w.admin.post('/api/v1/group/create', { name: 'limited', discount: 100, models: [w.model], is_public: true, is_default: true, weight: 10, rate_limits: { rpm: 3 } });
      expect(g.body.code).toBe(0);
      await settled(w);
      for (let i = 0; i < 3; i++) await ask(w);
      const raw = await fetch(`${w.server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'one too many' }] }),
      });
      expect(raw.status).toBe(429);
      expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await raw.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
    } finally {
      await w.close();
    }
  });
});
