import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dialects, expectNoDrift } from './helpers';
import { world, type World } from './gateway-fixtures';

const answer = (model: string, said: string) => `Hello from mock ${model}! You said: ${said}`;
/** The mock's token count (packages/mock-provider/src/text.ts). */
const tokens = (text: string) => Math.ceil(text.length / 4);

describe.each(dialects)('gateway chat on %s', (dialect) => {
  let w: World;

  beforeAll(async () => {
    w = await world(dialect);
  });
  afterAll(() => w?.close());
  beforeEach(() => {
    w.mock.faults.clear();
    w.mock.requests.length = 0;
  });

  it('answers a chat call, logs it and charges the exact price', async () => {
    const before = await w.quotaOf(w.user.userId);
    const r = await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'ping' }] });
    expect(r.choices[0]!.message.content).toBe(answer('gpt-test', 'ping'));
    expect(r.model).toBe('gpt-test');
    const completion = tokens(answer('gpt-test', 'ping'));
    expect(r.usage).toMatchObject({ prompt_tokens: 1, completion_tokens: completion });
    // The upstream saw one of the agent's keys and the model id.
    expect(w.mock.requests[0]).toMatchObject({ path: '/v1/chat/completions', model: 'gpt-test' });
    expect(w.mock.requests[0]!.key).toMatch(/^sk-mock-upstream-key-/);
    await w.flush();
    const cost = 1 * 1 + completion * 2;
    expect(await w.quotaOf(w.user.userId)).toBe(before - cost);
    const log = await w.server.app.ctx.db.selectFrom('call_logs').selectAll().orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(log).toMatchObject({ status: 1, model: 'gpt-test', prompt_tokens: 1, completion_tokens: completion, total_price: cost, user_id: w.user.userId, app_id: w.appId, stream: 0 });
    expect(log.key_mask).not.toContain('upstream-key-1');
    expect(log.creator).not.toBe(w.key);
  });

  it('sends the upstream text past ASCII as it was written', async () => {
    const said = 'naïve café — 你好, Привет 😀';
    const r = await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: said }] });
    expect(r.choices[0]!.message.content).toBe(answer('gpt-test', said));
    await w.flush();
  });

  it('streams with usage and charges the same way', async () => {
    const before = await w.quotaOf(w.user.userId);
    const stream = await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi there' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      expect(chunk.model).toBe('gpt-test');
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(answer('gpt-test', 'hi there'));
    expect(usage).toMatchObject({ prompt_tokens: 2, completion_tokens: tokens(text) });
    await w.flush();
    expect(await w.quotaOf(w.user.userId)).toBe(before - (2 + tokens(text) * 2));
  });

  it('rejects bad keys, bad bodies and unknown models in the OpenAI shape', async () => {
    const bad = new OpenAI({ apiKey: 'sk-FastAPInotakey', baseURL: `${w.server.url}/v1`, maxRetries: 0 });
    await expect(bad.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
    await expect(w.openai.chat.completions.create({ model: 'nope', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    const raw = await fetch(`${w.server.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' }, body: '{oops' });
    expect(raw.status).toBe(400);
    expect(((await raw.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
    const typed = await fetch(`${w.server.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-test', messages: 'hi' }) });
    expect(typed.status).toBe(400);
    expect(w.mock.requests).toHaveLength(0);
  });

  it('lists only the models this key may use', async () => {
    const list = await w.openai.models.list();
    expect(list.data.map((m) => m.id)).toEqual(['gpt-test']);
  });

  it('ends with every balance adding up to its records (ledger verifier)', () => expectNoDrift(w.server));
});

describe('gateway shutdown and retention', () => {
  it('writes every pending charge and call log on a clean shutdown, and retention deletes old logs', async () => {
    const w = await world('sqlite');
    const dataDir = w.server.app.ctx.config.dataDir;
    const before = await w.quotaOf(w.user.userId);
    for (let i = 0; i < 5; i++) await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: `bye ${i}` }] });
    // No flush: closing the app must write them.
    await w.server.app.close();
    const { default: SQLite } = await import('better-sqlite3');
    const db = new SQLite(`${dataDir}/fastgate.db`, { readonly: true });
    const count = db.prepare("select count(*) n, sum(total_price) p from call_logs where prompt like 'bye %'").get() as { n: number; p: number };
    const quota = (db.prepare('select quota from users where user_id = ?').get(w.user.userId) as { quota: number }).quota;
    db.close();
    expect(count.n).toBe(5);
    expect(quota).toBe(before - count.p);
    await w.mock.close();

    const fresh = await world('sqlite');
    try {
      await fresh.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'old' }] });
      await fresh.flush();
      const { housekeep } = await import('../src/jobs/housekeeping');
      expect((await housekeep(fresh.server.app.ctx, Date.now() + 89 * 86_400_000)).logs).toBe(0);
      expect((await housekeep(fresh.server.app.ctx, Date.now() + 91 * 86_400_000)).logs).toBe(1);
    } finally {
      await fresh.close();
    }
  });
});

describe('gateway body limit', () => {
  it('answers 413 in the OpenAI shape above the configured limit, charging nothing', async () => {
    const { startServer } = await import('./helpers');
    const server = await startServer('sqlite', { GATEWAY_BODY_LIMIT_MB: '0.5' });
    try {
      const big = JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'a'.repeat(600 * 1024) }] });
      const r = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer sk-FastAPIwhatever', 'content-type': 'application/json' }, body: big });
      expect(r.status).toBe(413);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('request_too_large');
    } finally {
      await server.close();
    }
  });
});
