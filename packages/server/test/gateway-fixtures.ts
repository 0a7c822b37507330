// A small world for gateway tests, built through the console API as an admin and a user would:
// a corp, priced models behind a model agent pointing at the mock provider, a user with quota, an app
// and an app key.
import { startMockProvider, type MockProvider } from '@fastgate/mock-provider/server';
import OpenAI from 'openai';
import { admin, setQuota, signedIn, startServer, type Client, type TestDialect, type TestServer } from './helpers';

export interface World {
  server: TestServer;
  mock: MockProvider;
  admin: Client;
  user: Client & { userId: number };
  corp: string;
  model: string;
  agent: string;
  appId: number;
  key: string;
  openai: OpenAI;
  /** Writes pending charges and logs now. */
  flush(): Promise<void>;
  quotaOf(userId: number): Promise<number>;
  close(): Promise<void>;
}

export const PROVIDER_KEYS = ['sk-mock-upstream-key-1', 'sk-mock-upstream-key-2'];

export async function world(dialect: TestDialect, opts: { quota?: number; textQuota?: Record<string, unknown>; agentKeys?: string[]; env?: Record<string, string> } = {}): Promise<World> {
  const mock = await startMockProvider();
  const server = await startServer(dialect, opts.env);
  const a = await admin(server);
  const corp = (await a.post('/api/v1/corp/create', { name: 'OpenAI', code: 'OpenAI', is_public: true })).body.data.id as string;
  const created = await a.post('/api/v1/model/create', {
    corp,
    name: 'gpt-test',
    model: 'gpt-test',
    type: 1,
    is_public: true,
    is_enable_model_agent: true,
    text_quota: opts.textQuota ?? { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 },
  });
  if (created.body.code !== 0) throw new Error(`model: ${created.body.message}`);
  const model = created.body.data.id as string;
  const agentRes = await a.post('/api/v1/model/agent/create', { corp, name: 'mock', base_url: mock.url, models: [model], key: (opts.agentKeys ?? PROVIDER_KEYS).join('\n'), lb_strategy: 1 });
  if (agentRes.body.code !== 0) throw new Error(`agent: ${agentRes.body.message}`);
  const user = await signedIn(server, 'user', `gw-user-${Math.random().toString(36).slice(2, 8)}@example.com`);
  // Through a deal record, like real money: the ledger verifier (expectNoDrift) accounts for it.
  await setQuota(server, user.userId, opts.quota ?? 1_000_000);
  await server.app.gateway.snapshot.reload('users', [String(user.userId)]);
  const app = await user.post('/api/v1/app/create', { name: 'Gateway test', is_create_key: true });
  // No wait: the console answers once this instance's gateway sees the app and its key (read-your-writes).
  if (app.body.code !== 0) throw new Error(`app: ${app.body.message}`);
  const key = app.body.data.key as string;
  return {
    server,
    mock,
    admin: a,
    user,
    corp,
    model,
    agent: agentRes.body.data.id,
    appId: app.body.data.app_id,
    key,
    openai: new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 }),
    flush: () => server.app.gateway.ledger.flush(),
    quotaOf: async (userId) => Number((await server.app.ctx.db.selectFrom('users').select('quota').where('user_id', '=', userId).executeTakeFirstOrThrow()).quota),
    close: async () => {
      await server.close();
      await mock.close();
    },
  };
}

/** Waits until the snapshot applied the console writes published so far. */
export async function settled(w: World): Promise<void> {
  await new Promise((r) => setTimeout(r, 40));
  await w.server.app.gateway.snapshot.settled;
}

/** Between tests: no mock faults or recorded requests, every provider key and agent enabled again, no breaker open or key cooling. */
export async function resetUpstreams(w: World): Promise<void> {
  w.mock.faults.clear();
  w.mock.requests.length = 0;
  const db = w.server.app.ctx.db;
  await db.updateTable('provider_keys').set({ status: 1, is_auto_disabled: 0, auto_disabled_reason: '' }).execute();
  await db.updateTable('model_agents').set({ status: 1, is_auto_disabled: 0, auto_disabled_reason: '' }).execute();
  await w.server.app.gateway.snapshot.reload('provider_keys', 'all');
  await w.server.app.gateway.snapshot.reload('model_agents', 'all');
  await w.server.app.gateway.breakers.store.reset();
}
