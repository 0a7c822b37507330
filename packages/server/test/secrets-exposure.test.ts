// Secrets stay secret (issue 7): after provider keys, app keys, passwords, mail passwords and an ID
// number are stored and gateway calls have run (including an upstream that echoes its key in an
// error), no read route of the console — every GET, page, list, detail and export, as admin, reseller
// and user — answers any of them in plaintext, except the explicit reveals below; and no server log
// line holds one.
import type { RouteInfo } from '../src/http/route-registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled, world, PROVIDER_KEYS, type World } from './gateway-fixtures';
import { dialects, signedIn, type Client } from './helpers';
import { callRoute } from './route-call';

/** Routes whose purpose is to show a secret to whoever may see it (docs/ORIGINAL-API.md §1.3, §1.6, §3.3, §3.4). */
const REVEALS = new Set([
  // The copy buttons.
  'POST /api/v1/key/copy/field',
  ...['chat', 'image', 'audio', 'virtualman', 'audioclone', 'videosecondcreation'].map((k) => `POST /api/v1/log/${k}/copy/field`),
  // An app key's detail carries the full key for whoever may see it (docs/ORIGINAL-API.md §1.3); a model key's
  // detail is masked (checked below), and so is the agent's (issue 11: its own reveal, recorded).
  'GET /api/v1/key/detail',
  'POST /api/v1/model/agent/key/reveal',
  // The app keys' export is the owner's download of its keys.
  'POST /api/v1/app/key/export',
]);

const READ = /\/(page|list|detail|tree|info|export|center|expense|data|top|percent|second|minute|menu)(\/:\w+)?$/;

describe.each(dialects)('secrets on %s', (dialect) => {
  let w: World;
  let reseller: Client & { userId: number };
  const secrets: Record<string, string> = {};
  /** What gateway clients were answered when upstreams failed. */
  const gatewayAnswers: string[] = [];

  beforeAll(async () => {
    w = await world(dialect);
    const a = w.admin;
    const ok = (r: { body: { code: number; message: string } }, what: string) => {
      if (r.body.code !== 0) throw new Error(`${what}: ${r.body.message}`);
    };
    secrets.providerKey1 = PROVIDER_KEYS[0]!;
    secrets.providerKey2 = PROVIDER_KEYS[1]!;
    secrets.appKey = w.key;
    secrets.modelKey = 'sk-model-key-secret-7f3a9c1e5b';
    ok(await a.post('/api/v1/key/create', { type: 2, corp: w.corp, key: secrets.modelKey, models: [w.model] }), 'model key');
    secrets.userPassword = 'Us3r#Secret!pw';
    secrets.resellerPassword = 'R3s#Secret!pw';
    const created = await a.post('/api/v1/admin/reseller/create', { name: 'secret-r', account: `secret-reseller-${dialect}`, email: '', password: secrets.resellerPassword });
    ok(created, 'reseller');
    reseller = await signedIn(w.server, 'reseller', `secrets-reseller-${dialect}`);
    ok(await a.post('/api/v1/admin/user/create', { name: 'secret-u', account: `secret-user-${dialect}`, email: '', password: secrets.userPassword, rid: reseller.userId }), 'user');
    secrets.siteMailPassword = 'smtp-site-secret-91c2';
    ok(await reseller.post('/api/v1/sys/site/create', { domain: `secrets-${dialect}.example.com`, host: 'smtp.example.com', user_name: 'mailer', password: secrets.siteMailPassword }), 'site');
    secrets.sysMailPassword = 'smtp-sys-secret-44d0';
    ok(await a.post('/api/v1/sys/config/update', { action: 'email', email: { open: false, host: 'smtp.example.com', port: 465, user_name: 'sys', password: secrets.sysMailPassword, from_name: 'x' } }), 'sys mail');
    secrets.idNumber = 'SECRETID778899';
    ok(await w.user.post('/api/v1/user/certification/create', { real_name: 'Secret Person', id_number: secrets.idNumber }), 'certification');
    // A second app key made in batch, and the sessions' bearer tokens (never in a log).
    const batch = await w.user.post('/api/v1/app/key/batch/operate', { action: 'create', app_id: w.appId, n: 1 });
    ok(batch, 'batch key');
    secrets.batchKey = (batch.body as unknown as { data: { keys: string } }).data.keys;
    secrets.adminToken = w.admin.token;
    secrets.userToken = w.user.token;

    // Gateway calls: JSON, stream, a wrong key, and an upstream whose error text echoes the key it was sent.
    await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }] });
    const stream = await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'stream please' }], stream: true });
    for await (const _chunk of stream) void _chunk;
    await fetch(`${w.server.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${secrets.appKey}x`, 'content-type': 'application/json' }, body: '{}' });
    for (const key of PROVIDER_KEYS) w.mock.faults.add({ key, status: 400, error: `Invalid request for key ${key}`, times: 1 });
    const chat = (stream: boolean) =>
      fetch(`${w.server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-test', stream, messages: [{ role: 'user', content: 'fail' }] }),
      }).then((r) => r.text());
    gatewayAnswers.push(await chat(false));
    for (const key of PROVIDER_KEYS) w.mock.faults.add({ key, status: 401, error: `Incorrect API key provided: ${key}`, times: 1 });
    gatewayAnswers.push(await chat(true));
    w.mock.faults.clear();
    await w.flush();
    await settled(w);
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  /** Ids to read details of: the first row of the same prefix's page (or list), per caller. */
  async function firstId(client: Client, routes: RouteInfo[], detail: RouteInfo): Promise<string[]> {
    const prefix = detail.url.replace(/\/detail$/, '');
    const ids = new Set<string>();
    for (const r of routes.filter((x) => x.url === `${prefix}/page` || x.url === `${prefix}/list`)) {
      for (const type of prefix.endsWith('/key') ? [1, 2] : [undefined]) {
        const res = await callRoute(client, r.method, r.url, type ? { type, pageSize: 50 } : { pageSize: 50 });
        const items = ((res.json?.data as { items?: { id?: unknown }[] } | null)?.items ?? []).slice(0, 3);
        for (const item of items) if (typeof item.id === 'string') ids.add(item.id);
      }
    }
    return [...ids];
  }

  it('no read route answers a secret, and no log line holds one', async () => {
    const routes = w.server.app.consoleRoutes;
    const callers: Record<string, Client> = { admin: w.admin, reseller, user: w.user };
    const problems: string[] = [];
    const today = new Date().toISOString().slice(0, 10);
    let reads = 0;
    const check = (what: string, text: string) => {
      reads++;
      for (const [name, value] of Object.entries(secrets)) if (text.includes(value)) problems.push(`${what}: shows ${name}`);
    };
    for (const [who, client] of Object.entries(callers)) {
      for (const r of routes) {
        const key = `${r.method} ${r.url}`;
        if (REVEALS.has(key) || r.public || !READ.test(r.url)) continue;
        const body = r.url.endsWith('/export') ? { req_time: [today, today], stat_date: [today, today], status: 1 } : r.url.endsWith('/top') ? { days: 7 } : { pageSize: 100 };
        if (r.url.endsWith('/detail')) {
          for (const id of await firstId(client, routes, r)) check(`${key}?id=${id} as ${who}`, (await callRoute(client, r.method, r.url, { id })).text);
          continue;
        }
        const res = await callRoute(client, r.method, r.url, body);
        check(`${key} as ${who}`, res.text);
        // Key pages hold model keys (type 2) and app keys (type 1).
        if (r.url === '/api/v1/key/page') check(`${key} type 1 as ${who}`, (await callRoute(client, r.method, r.url, { type: 1, pageSize: 100 })).text);
      }
    }
    for (const [i, text] of gatewayAnswers.entries()) check(`gateway answer ${i}`, text);
    // Provider keys are masked in every detail too: the model keys' (type 2) and the agents' (issue 11).
    for (const k of await w.server.app.ctx.db.selectFrom('provider_keys').select('id').execute()) {
      check(`GET /api/v1/key/detail?id=${k.id}&type=2 as admin`, JSON.stringify((await w.admin.get('/api/v1/key/detail', { id: k.id, type: 2 })).body));
    }
    for (const agent of await w.server.app.ctx.db.selectFrom('model_agents').select('id').execute()) {
      check(`GET /api/v1/model/agent/detail?id=${agent.id} as admin`, JSON.stringify((await w.admin.get('/api/v1/model/agent/detail', { id: agent.id })).body));
    }
    // The reveals do reveal (so the checks above look at the right strings).
    const appKeyId = (await w.server.app.ctx.db.selectFrom('app_keys').select('id').where('app_id', '=', w.appId).executeTakeFirstOrThrow()).id;
    expect((await w.user.post('/api/v1/key/copy/field', { id: appKeyId })).body.data.value).toBe(secrets.appKey);
    for (const [i, line] of w.server.logs.entries()) {
      for (const [name, value] of Object.entries(secrets)) if (line.includes(value)) problems.push(`log line ${i}: holds ${name}: ${line.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
    expect(reads).toBeGreaterThan(100);
    expect(w.server.logs.length).toBeGreaterThan(0);
  });
});
