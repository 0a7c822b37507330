// Read-your-writes: a console write is visible to the gateway of the instance that took it before the
// console answers. Everything here goes through the console API and straight on to the gateway, with no
// wait in between: a key created with its app works on its very first calls, a model and agent created
// a moment ago answer, a disabled key is refused on the very next call, a granted group lets the next
// call through and an ungranted one stops it. On SQLite, PostgreSQL and in Redis mode (TEST_REDIS_URL).
import { randomBytes } from 'node:crypto';
import { startMockProvider, type MockProvider } from '@fastgate/mock-provider/server';
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, admin, startServer, type TestDialect, type TestServer } from './helpers';

const REDIS_URL = process.env.TEST_REDIS_URL;

const modes: [string, TestDialect, boolean][] = [
  ['SQLite', 'sqlite', false],
  ['PostgreSQL', 'postgres', false],
  ...(REDIS_URL ? ([['PostgreSQL in Redis mode', 'postgres', true]] as [string, TestDialect, boolean][]) : []),
];

describe.each(modes)('read-your-writes on %s', (_name, dialect, redisMode) => {
  let mock: MockProvider;
  let server: TestServer;
  let a: Client;
  let user: Client & { userId: number };
  let corp: string;
  const prefix = `fgtest:ryw:${randomBytes(6).toString('hex')}:`;
  let n = 0;
  const unique = (what: string) => `${what}-${++n}`;

  const ok = async <T = any>(p: Promise<{ body: { code: number; message: string; data: T } }>): Promise<T> => {
    const r = await p;
    if (r.body.code !== 0) throw new Error(`console answered ${r.body.code}: ${r.body.message}`);
    return r.body.data;
  };
  /** A public model behind its own agent pointing at the mock. */
  const modelWithAgent = async (extra: Record<string, unknown> = {}) => {
    const name = unique('ryw-model');
    const model = (await ok(a.post('/api/v1/model/create', { corp, name, model: name, type: 1, is_public: true, is_enable_model_agent: true, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 1 }, ...extra }))).id as string;
    await ok(a.post('/api/v1/model/agent/create', { corp, name: unique('ryw-agent'), base_url: mock.url, models: [model], key: 'sk-mock-upstream-key-1', lb_strategy: 1 }));
    return { id: model, name };
  };
  const openai = (key: string) => new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
  /** The HTTP status of one chat call (200 when it succeeded). */
  const statusOf = (key: string, model: string) =>
    openai(key)
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
      .then(
        () => 200,
        (err: unknown) => (err instanceof OpenAI.APIError ? (err.status ?? -1) : -1),
      );
  const newApp = async () => ok<{ app_id: number; key: string }>(user.post('/api/v1/app/create', { name: unique('ryw-app'), is_create_key: true }));

  let model: { id: string; name: string };

  beforeAll(async () => {
    mock = await startMockProvider();
    server = await startServer(dialect, redisMode ? { REDIS_URL: REDIS_URL!, REDIS_PREFIX: prefix } : {});
    a = await admin(server);
    corp = (await ok(a.post('/api/v1/corp/create', { name: 'OpenAI', code: 'OpenAI', is_public: true }))).id;
    model = await modelWithAgent();
    // The account is made through the console too: its balance is the gateway's to know at once.
    const account = `ryw-${randomBytes(4).toString('hex')}@example.com`;
    const created = await ok<{ user_id: number }>(a.post('/api/v1/admin/user/create', { name: 'ryw', account, email: account, password: 'Passw0rd!x', quota: 10_000_000 }));
    user = Object.assign(new Client(server.url), { userId: created.user_id });
    await user.login('user', account, 'Passw0rd!x');
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await mock?.close();
    if (redisMode) {
      const redis = new Redis(REDIS_URL!);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
  });

  it('an app created with a key: 30 calls made the moment the console answers all succeed', async () => {
    const { key } = await newApp();
    const statuses = await Promise.all(Array.from({ length: 30 }, () => statusOf(key, model.name)));
    expect(statuses).toEqual(Array(30).fill(200));
  });

  it('a model and its agent created a moment ago answer the very next call', async () => {
    const { key } = await newApp();
    const fresh = await modelWithAgent();
    expect(await statusOf(key, fresh.name)).toBe(200);
    expect(mock.requests.at(-1)?.body).toMatchObject({ model: fresh.name });
  });

  it('a disabled key is refused on the very next call, and works again on the next one once enabled', async () => {
    const { app_id, key } = await newApp();
    expect(await statusOf(key, model.name)).toBe(200);
    const keyId = (await ok(user.post('/api/v1/key/page', { type: 1, app_id }))).items[0].id as string;
    await ok(user.post('/api/v1/key/change/status', { id: keyId, type: 1, status: 2 }));
    expect(await statusOf(key, model.name)).toBe(403);
    await ok(user.post('/api/v1/key/change/status', { id: keyId, type: 1, status: 1 }));
    expect(await statusOf(key, model.name)).toBe(200);
  });

  it('a group granted to the account lets the very next call through; ungranted, the next call is refused', async () => {
    const { key } = await newApp();
    const hidden = await modelWithAgent({ is_public: false });
    const group = (await ok(a.post('/api/v1/group/create', { name: unique('ryw-group'), discount: 100, weight: 1, models: [hidden.id] }))).id as string;
    // Not granted: the model does not exist for this account.
    expect(await statusOf(key, hidden.name)).toBe(404);
    const grant = (groups: string[]) => ok(a.post('/api/v1/admin/user/permissions', { user_id: user.userId, groups, models: [] }));
    await grant([group]);
    expect(await statusOf(key, hidden.name)).toBe(200);
    await grant([]);
    expect(await statusOf(key, hidden.name)).toBe(404);
  });
});
