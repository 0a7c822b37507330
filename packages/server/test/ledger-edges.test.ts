// Money at the edges of a balance (issue 13), over HTTP with the official SDKs against the mock, on
// SQLite, PostgreSQL and Redis mode (PostgreSQL + TEST_REDIS_URL):
// - a balance too small for the default completion budget still calls, capped to what it can pay for;
// - console deductions and deletions see what calls in flight hold and what is charged but unwritten;
// - an upstream that ignores max_tokens is charged no further than the cap the gateway sent, and no
//   balance ever goes below zero.
// Every test ends on the same books: the balance is the start minus the deals minus the logged charges.
import { randomBytes } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { t } from '@fastgate/core/messages';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PROVIDER_KEYS, settled, world, type World } from './gateway-fixtures';
import { signedIn, type TestDialect } from './helpers';

const REDIS_URL = process.env.TEST_REDIS_URL;
const U = '/api/v1/admin/user';

const modes: [string, TestDialect, boolean][] = [
  ['SQLite', 'sqlite', false],
  ['PostgreSQL', 'postgres', false],
  ...(REDIS_URL ? [['Redis mode (PostgreSQL)', 'postgres', true] as [string, TestDialect, boolean]] : []),
];

describe.each(modes)('balances at the edges on %s', (_name, dialect, redis) => {
  let w: World;
  const prefix = `fgtest:edges:${randomBytes(6).toString('hex')}:`;

  beforeAll(async () => {
    w = await world(dialect, redis ? { env: { REDIS_URL: REDIS_URL!, REDIS_PREFIX: prefix, REDIS_LEASE_S: '2' } } : {});
    // One model per ingress with a native passthrough (prompt 1, completion 2 per token, as gpt-test).
    for (const [code, name, agent] of [
      ['Anthropic', 'claude-edge', {}],
      ['Google', 'gemini-edge', {}],
      ['OpenAI', 'resp-edge', { wire_api: 'responses' }],
    ] as const) {
      const corp = (await w.admin.post('/api/v1/corp/create', { name: `${code} ${name}`, code, is_public: true })).body.data.id as string;
      const model = await w.admin.post('/api/v1/model/create', { corp, name, model: name, type: 1, is_public: true, is_enable_model_agent: true, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 } });
      if (model.body.code !== 0) throw new Error(model.body.message);
      const made = await w.admin.post('/api/v1/model/agent/create', { corp, name: `${name} agent`, base_url: w.mock.url, models: [model.body.data.id], key: `sk-mock-${name}-key`, ...agent });
      if (made.body.code !== 0) throw new Error(made.body.message);
    }
    await settled(w);
  });
  afterAll(async () => {
    if (redis && w) {
      const client = w.server.app.ctx.redis!.client;
      const keys = await client.keys(`${prefix}*`);
      if (keys.length) await client.del(...keys);
    }
    await w?.close();
  });
  beforeEach(() => {
    w.mock.faults.clear();
    w.mock.requests.length = 0;
  });

  const db = () => w.server.app.ctx.db;

  /** Sets a balance the way a console write does: in the database, then the change event (snapshot, Redis base). */
  async function setQuota(userId: number, quota: number) {
    await db().updateTable('users').set({ quota }).where('user_id', '=', userId).execute();
    await w.server.app.ctx.bus.publish({ entity: 'users', op: 'update', ids: [String(userId)] });
    await settled(w);
  }

  /** A fresh user (of `rid`, if given) with `quota`, an app and its key. */
  async function caller(quota: number, rid?: number) {
    const user = await signedIn(w.server, 'user', `edge-${randomBytes(5).toString('hex')}@example.com`, { rid });
    await setQuota(user.userId, quota);
    const app = await user.post('/api/v1/app/create', { name: 'Edge', is_create_key: true });
    if (app.body.code !== 0) throw new Error(app.body.message);
    await settled(w);
    const key = app.body.data.key as string;
    return { userId: user.userId, key, openai: new OpenAI({ apiKey: key, baseURL: `${w.server.url}/v1`, maxRetries: 0 }) };
  }

  /** The books of a user once everything is written: its balance and the sum of its logged charges. */
  async function books(userId: number) {
    await w.flush();
    const logs = await db().selectFrom('call_logs').select(['total_price', 'completion_tokens', 'status']).where('user_id', '=', userId).execute();
    return { balance: await w.quotaOf(userId), charged: logs.reduce((s, l) => s + Number(l.total_price), 0), logs };
  }

  const account = (userId: number) => ({ kind: 'user' as const, id: userId, limited: true });

  /** Waits until `n` calls of this test reached the mock (they are in flight there). */
  async function inFlight(n: number) {
    for (const end = Date.now() + 10_000; w.mock.requests.length < n; ) {
      if (Date.now() > end) throw new Error(`only ${w.mock.requests.length} of ${n} calls reached the upstream`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  describe('a balance smaller than the default completion budget', () => {
    it('makes about as many calls as it pays for (35–40 of 100 concurrent), each capped, and ends at start − Σ charges ≥ 0', async () => {
      // What one call costs here: the mock's fixed answer, at the model's ratios.
      const probe = await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
      const per = probe.usage!.prompt_tokens + 2 * probe.usage!.completion_tokens;
      const start = 40 * per;
      const c = await caller(start);
      w.mock.requests.length = 0;
      const results = await Promise.allSettled(Array.from({ length: 100 }, () => c.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] })));
      const ok = results.filter((r) => r.status === 'fulfilled').length;
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ status: 429, code: 'insufficient_quota' });
      expect(ok).toBeGreaterThanOrEqual(35);
      expect(ok).toBeLessThanOrEqual(40);
      // Each call went upstream with the cap its reservation pays for, never the 4,096 default.
      expect(w.mock.requests).toHaveLength(ok);
      for (const r of w.mock.requests) {
        const cap = (r.body as { max_tokens?: number }).max_tokens;
        expect(cap).toBeGreaterThanOrEqual(1);
        expect(2 * cap!).toBeLessThanOrEqual(start);
      }
      const { balance, charged, logs } = await books(c.userId);
      expect(logs.filter((l) => l.status === 1)).toHaveLength(ok);
      expect(balance).toBeGreaterThanOrEqual(0);
      expect(balance).toBe(start - charged);
      // Whatever is left cannot pay for one more prompt.
      await expect(c.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 429 });
    });

    it('sends the affordable cap in each protocol’s own field: chat, Anthropic Messages, Responses and Gemini passthrough', async () => {
      const start = 600;
      const cases: [string, (key: string) => Promise<unknown>, (body: any) => number | undefined][] = [
        ['chat → Anthropic', (key) => new OpenAI({ apiKey: key, baseURL: `${w.server.url}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'claude-edge', messages: [{ role: 'user', content: 'hi' }] }), (b) => b.max_tokens],
        ['Messages, native', (key) => new Anthropic({ apiKey: key, baseURL: w.server.url, maxRetries: 0 }).messages.create({ model: 'claude-edge', max_tokens: 8192, messages: [{ role: 'user', content: 'hi' }] }), (b) => b.max_tokens],
        ['Responses, native', (key) => new OpenAI({ apiKey: key, baseURL: `${w.server.url}/v1`, maxRetries: 0 }).responses.create({ model: 'resp-edge', input: 'hi' }), (b) => b.max_output_tokens],
        [
          'Gemini, native',
          async (key) => {
            const res = await fetch(`${w.server.url}/v1beta/models/gemini-edge:generateContent`, { method: 'POST', headers: { 'x-goog-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }) });
            if (res.status !== 200) throw new Error(`Gemini native: ${res.status} ${await res.text()}`);
          },
          (b) => b.generationConfig?.maxOutputTokens,
        ],
      ];
      for (const [what, call, capOf] of cases) {
        const c = await caller(start);
        w.mock.requests.length = 0;
        await call(c.key);
        expect(w.mock.requests, what).toHaveLength(1);
        const cap = capOf(w.mock.requests[0]!.body);
        expect(cap, what).toBeGreaterThanOrEqual(16);
        expect(2 * cap!, what).toBeLessThanOrEqual(start);
        const { balance, charged } = await books(c.userId);
        expect(balance, what).toBe(start - charged);
        expect(balance, what).toBeGreaterThanOrEqual(0);
      }
    });

    it('refuses when not even the prompt is affordable', async () => {
      const c = await caller(5);
      await expect(c.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'a prompt that costs more than five units' }] })).rejects.toMatchObject({ status: 429, code: 'insufficient_quota' });
      expect(w.mock.requests).toHaveLength(0);
    });
  });

  describe('an upstream that ignores max_tokens', () => {
    it('is charged no further than the cap the gateway sent: 150 parallel calls, the balance ends ≥ 0', async () => {
      // Every answer is 1,000 tokens, whatever max_tokens says.
      for (const key of PROVIDER_KEYS) w.mock.faults.add({ key, reply: 'word'.repeat(1000) });
      const start = 3000;
      const c = await caller(start);
      const results = await Promise.allSettled(Array.from({ length: 150 }, () => c.openai.chat.completions.create({ model: 'gpt-test', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })));
      const answered = results.filter((r) => r.status === 'fulfilled');
      expect(answered.length).toBeGreaterThan(0);
      for (const r of answered) expect((r as PromiseFulfilledResult<OpenAI.ChatCompletion>).value.usage!.completion_tokens).toBeLessThanOrEqual(10);
      const { balance, charged, logs } = await books(c.userId);
      for (const l of logs) expect(Number(l.completion_tokens)).toBeLessThanOrEqual(10);
      expect(balance).toBeGreaterThanOrEqual(0);
      expect(balance).toBe(start - charged);
    });

    it('never takes a balance below zero when no cap was sent and the answer outruns the reservation', async () => {
      // 6,000 tokens an answer, above the 4,096 the gateway reserves when the client sets no max_tokens.
      for (const key of PROVIDER_KEYS) w.mock.faults.add({ key, reply: 'word'.repeat(6000) });
      const start = 25_000;
      const c = await caller(start);
      await Promise.allSettled(Array.from({ length: 10 }, () => c.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] })));
      const { balance, charged } = await books(c.userId);
      expect(charged).toBeGreaterThan(0);
      expect(balance).toBeGreaterThanOrEqual(0);
      expect(balance).toBe(start - charged);
    });
  });

  describe('console deductions while calls are in flight', () => {
    it('a reseller cannot take back what calls in flight hold; what it takes back plus what they settle leaves the balance ≥ 0', async () => {
      const reseller = await signedIn(w.server, 'reseller', `edge-res-${randomBytes(4).toString('hex')}@example.com`);
      const start = 20_000;
      const c = await caller(start, reseller.userId);
      // 7 slow calls, each holding its reservation for a second and a half.
      const calls = Array.from({ length: 7 }, () => c.openai.chat.completions.create({ model: 'gpt-test', max_tokens: 1000, messages: [{ role: 'user', content: 'hi [[mock:delay=1500]]' }] }));
      await inFlight(7);
      const whole = await w.server.app.ctx.db.selectFrom('users').select('quota').where('user_id', '=', c.userId).executeTakeFirstOrThrow();
      expect(Number(whole.quota)).toBe(start);
      const refused = await reseller.post(`${U}/recharge`, { user_id: c.userId, quota: start, quota_type: 2 });
      expect(refused.body).toMatchObject({ code: 50, message: t('quota.user_insufficient', 'zh-CN') });
      // What is not held can be taken back.
      const free = await w.server.app.gateway.ledger.available(account(c.userId));
      expect(free).toBeGreaterThan(0);
      expect(free).toBeLessThan(start);
      expect((await reseller.post(`${U}/recharge`, { user_id: c.userId, quota: free, quota_type: 2 })).body.code).toBe(0);
      const settledCalls = await Promise.allSettled(calls);
      expect(settledCalls.every((r) => r.status === 'fulfilled')).toBe(true);
      const { balance, charged } = await books(c.userId);
      expect(charged).toBeGreaterThan(0);
      expect(balance).toBeGreaterThanOrEqual(0);
      expect(balance).toBe(start - free - charged);
      expect(await w.quotaOf(reseller.userId)).toBe(free);
    });

    it('a deduction does not take charges settled but not yet written', async () => {
      const start = 10_000;
      const c = await caller(start);
      await c.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
      // Settled (in the ledger's store), not flushed: the stored quota still says `start`.
      const free = await w.server.app.gateway.ledger.available(account(c.userId));
      expect(free).toBeLessThan(start);
      expect((await w.admin.post(`${U}/recharge`, { user_id: c.userId, quota: start, quota_type: 2 })).body.code).toBe(50);
      expect((await w.admin.post(`${U}/recharge`, { user_id: c.userId, quota: free, quota_type: 2 })).body.code).toBe(0);
      const { balance, charged } = await books(c.userId);
      expect(balance).toBe(0);
      expect(balance).toBe(start - free - charged);
    });

    it('deleting an account refuses while its calls are in flight, and succeeds once they settled', async () => {
      const c = await caller(20_000);
      const calls = Array.from({ length: 3 }, () => c.openai.chat.completions.create({ model: 'gpt-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi [[mock:delay=4000]]' }] }));
      await inFlight(3);
      const row = await db().selectFrom('users').select('id').where('user_id', '=', c.userId).executeTakeFirstOrThrow();
      const refused = await w.admin.post(`${U}/delete`, { id: row.id, data: [] });
      expect(refused.body).toMatchObject({ code: 50, message: t('quota.calls_in_flight', 'zh-CN') });
      expect(await db().selectFrom('users').select('id').where('user_id', '=', c.userId).executeTakeFirst()).toBeDefined();
      expect((await Promise.allSettled(calls)).every((r) => r.status === 'fulfilled')).toBe(true);
      // Settled, maybe not written yet: the deletion writes the charges first.
      expect((await w.admin.post(`${U}/delete`, { id: row.id, data: [] })).body.code).toBe(0);
      expect(await db().selectFrom('users').select('id').where('user_id', '=', c.userId).executeTakeFirst()).toBeUndefined();
      const logs = await db().selectFrom('call_logs').select('total_price').where('user_id', '=', c.userId).execute();
      expect(logs.filter((l) => Number(l.total_price) > 0)).toHaveLength(3);
    });
  });
});
