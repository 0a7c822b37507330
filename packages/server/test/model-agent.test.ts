import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskKey } from '@fastgate/core/key-mask';
import { admin, Client, dialects, signedIn, startServer, type TestServer } from './helpers';

const A = '/api/v1/model/agent';
const KEY1 = 'sk-agent-key-one-0001';
const KEY2 = 'sk-agent-key-two-0002';
const KEY3 = 'sk-agent-key-three-03';

describe.each(dialects)('model agents on %s', (dialect) => {
  let server: TestServer;
  let a: Client;
  let reseller: Client;
  let user: Client;
  let corp: string;
  let model: string;

  const keys = () => server.app.ctx.db.selectFrom('provider_keys').selectAll().orderBy('created_at').execute();

  beforeAll(async () => {
    server = await startServer(dialect);
    a = await admin(server);
    reseller = await signedIn(server, 'reseller', 'ares1');
    user = await signedIn(server, 'user', 'auser1');
    corp = (await a.post('/api/v1/corp/create', { name: 'OpenAI', code: 'OpenAI' })).body.data.id;
    model = (await a.post('/api/v1/model/create', { corp, name: 'gpt', model: 'gpt', type: 1 })).body.data.id;
  });
  afterAll(() => server?.close());

  it('creates with keys, shows them masked in detail, rebinds on update and cleans up on delete', async () => {
    const events: string[] = [];
    const off = server.app.ctx.bus.subscribe((e) => events.push(`${e.entity}:${e.op}`));
    const r = await a.post(`${A}/create`, {
      corp,
      name: 'Agent 1',
      base_url: 'https://up.example/v1',
      weight: 30,
      models: [model],
      is_enable_model_replace: true,
      replace_models: ['gpt'],
      target_models: ['gpt-4o-2024'],
      lb_strategy: 2,
      key: `${KEY1}\n\n  ${KEY2}  \n${KEY1}`,
      fallback_models: [model],
    });
    expect(r.body).toMatchObject({ code: 0 });
    const id = r.body.data.id;
    expect(events.sort()).toEqual(['model_agents:create', 'provider_keys:create']);
    off();

    const stored = await keys();
    expect(stored).toHaveLength(2);
    expect(stored[0]).toMatchObject({ corp, models: JSON.stringify([model]), model_agents: JSON.stringify([id]), is_agents_only: 1 });
    expect(stored.map((k) => k.key_cipher).join()).not.toContain('sk-agent');
    expect(server.logs.join('')).not.toContain(KEY1);

    const d = (await a.get(`${A}/detail`, { id })).body.data;
    expect(d).toMatchObject({ corp_name: 'OpenAI', name: 'Agent 1', weight: 30, models: [model], model_names: ['gpt'], fallback_model_names: ['gpt'], lb_strategy: 2, key_count: 2, is_auto_disabled: false, auto_disabled_reason: '', replace_models: ['gpt'], target_models: ['gpt-4o-2024'] });
    expect(d.key.split('\n').sort()).toEqual([maskKey(KEY1), maskKey(KEY2)].sort());
    expect(d.keys.map((k: { id: string; key: string }) => [k.id, k.key]).sort()).toEqual(stored.map((k) => [k.id, maskKey(k.id === stored[0]!.id ? KEY1 : KEY2)]).sort());
    const row = (await a.post(`${A}/page`, { name: 'agent 1' })).body.data.items[0];
    expect(row.key).toBeUndefined();
    expect(row.key_count).toBe(2);
    // The derived side: the model lists the agent.
    expect((await a.get('/api/v1/model/detail', { id: model })).body.data.model_agent_names).toEqual(['Agent 1']);

    // A key that also works directly (is_agents_only off) survives being dropped from the agent.
    await server.app.ctx.db.updateTable('provider_keys').set({ is_agents_only: 0 }).where('id', '=', stored[1]!.id).execute();
    const up = await a.post(`${A}/update`, { id, corp, name: 'Agent 1', base_url: 'https://up.example/v1', models: [], key: KEY3 });
    expect(up.body).toMatchObject({ code: 0 });
    const after = await keys();
    expect(after).toHaveLength(2);
    const kept = after.find((k) => k.id === stored[1]!.id)!;
    expect(kept.model_agents).toBe('[]');
    expect(after.find((k) => k.id !== kept.id)!.models).toBe('[]');
    expect((await a.get(`${A}/detail`, { id })).body.data.key).toBe(maskKey(KEY3));

    // A second agent given an already stored key shares the row.
    const b = (await a.post(`${A}/create`, { corp, name: 'Agent 2', base_url: 'https://b.example', key: KEY3 })).body.data.id;
    expect(await keys()).toHaveLength(2);
    expect((await a.get(`${A}/detail`, { id: b })).body.data.key).toBe(maskKey(KEY3));
    expect((await a.post(`${A}/delete`, { id: b })).body.code).toBe(0);
    expect((await a.get(`${A}/detail`, { id })).body.data.key).toBe(maskKey(KEY3));

    const g = (await a.post('/api/v1/group/create', { name: 'withAgent', discount: 90, weight: 1, is_enable_model_agent: true, model_agents: [id] })).body.data.id;
    expect((await a.post(`${A}/change/status`, { id, status: 2 })).body.code).toBe(0);
    expect((await a.get(`${A}/list`)).body.data.items.map((x: { id: string }) => x.id)).not.toContain(id);
    expect((await a.post(`${A}/delete`, { id })).body.code).toBe(0);
    expect((await keys()).map((k) => k.id)).toEqual([kept.id]);
    expect((await a.get('/api/v1/group/detail', { id: g })).body.data.model_agents).toEqual([]);
  });

  it('pages with filters and runs batch actions', async () => {
    const mk = (name: string, extra: Record<string, unknown> = {}) => a.post(`${A}/create`, { corp, name, base_url: `https://${name}.example`, ...extra }).then((r) => r.body.data.id as string);
    const x = await mk('flt-x', { models: [model], remark: 'east' });
    const y = await mk('flt-y', { path: '/v2/chat' });
    const page = (f: Record<string, unknown>) => a.post(`${A}/page`, { name: 'flt-', ...f }).then((r) => r.body.data.items.map((i: { name: string }) => i.name).sort());
    expect(await page({})).toEqual(['flt-x', 'flt-y']);
    expect(await page({ models: [model] })).toEqual(['flt-x']);
    expect(await page({ models: model })).toEqual(['flt-x']);
    expect(await page({ path: 'v2' })).toEqual(['flt-y']);
    expect(await page({ base_url: 'flt-x.example' })).toEqual(['flt-x']);
    expect(await page({ remark: 'EAST' })).toEqual(['flt-x']);
    expect(await page({ corp })).toEqual(['flt-x', 'flt-y']);
    expect((await a.post(`${A}/batch/operate`, { action: 'status', ids: [x, y], value: 2 })).body.code).toBe(0);
    expect(await page({ status: 2 })).toEqual(['flt-x', 'flt-y']);
    expect((await a.post(`${A}/batch/operate`, { action: 'status', ids: [x], value: 3 })).body.message).toContain('value');
    expect((await a.post(`${A}/batch/operate`, { action: 'nuke', ids: [x] })).body.message).toContain('action');
    expect((await a.post(`${A}/batch/operate`, { action: 'delete', ids: [x, y] })).body.code).toBe(0);
    expect(await page({})).toEqual([]);
  });

  it('rejects bad input naming the field, writing nothing', async () => {
    const before = (await a.post(`${A}/page`, {})).body.data.paging.total;
    const keysBefore = (await keys()).length;
    const base = { corp, name: 'bad', base_url: 'https://x.example' };
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ weight: 0 }, 'weight'],
      [{ weight: 101 }, 'weight'],
      [{ status: 0 }, 'status'],
      [{ lb_strategy: 3 }, 'lb_strategy'],
      [{ corp: 'ghost' }, 'corp'],
      [{ models: ['ghost'] }, 'models'],
      [{ fallback_models: ['ghost'] }, 'fallback_models'],
      [{ replace_models: ['a'], target_models: [] }, 'target_models'],
      [{ key: 'short' }, 'key'],
      [{ key: `${KEY1}\nhas space inside` }, 'key'],
      [{ key: 'k'.repeat(301) }, 'key'],
    ];
    for (const [body, field] of cases) {
      const r = await a.post(`${A}/create`, { ...base, ...body });
      expect(r.body.code, field).toBe(51);
      expect(r.body.message, field).toContain(field);
    }
    const fmt = await a.post(`${A}/create`, { ...base, key: 'bad key' });
    expect(fmt.body.message).toContain('密钥格式不正确，请检查');
    a.lang = 'en-US';
    expect((await a.post(`${A}/create`, { ...base, key: 'bad key' })).body.message).toContain('Key format incorrect, please check');
    a.lang = 'zh-CN';
    expect((await a.post(`${A}/page`, {})).body.data.paging.total).toBe(before);
    expect(await keys()).toHaveLength(keysBefore);
  });

  it('never answers a key in clear: edits keep keys by id or mask, the reveal gives one key and is recorded', async () => {
    const K1 = 'sk-mask-test-key-aaaa1111';
    const K2 = 'sk-mask-test-key-bbbb2222';
    const K3 = 'sk-mask-test-key-cccc3333';
    const base = { corp, name: 'Masked', base_url: 'https://m.example', models: [model] };
    const id = (await a.post(`${A}/create`, { ...base, key: `${K1}\n${K2}` })).body.data.id as string;
    const detail = async () => (await a.get(`${A}/detail`, { id })).body.data as { key: string; keys: { id: string; key: string }[] };
    // Detail and page hold masks only (the edit form starts from detail).
    const d = await detail();
    const page = await a.post(`${A}/page`, { name: 'Masked' });
    for (const text of [JSON.stringify(d), JSON.stringify(page.body)]) for (const k of [K1, K2]) expect(text).not.toContain(k);
    const [k1, k2] = [d.keys.find((k) => k.key === maskKey(K1))!, d.keys.find((k) => k.key === maskKey(K2))!];
    expect(k1 && k2).toBeTruthy();

    // The form's update: keep K1 by id, add K3; K2 (neither kept nor listed) is unbound and, agents-only, dropped.
    expect((await a.post(`${A}/update`, { ...base, id, key_ids: [k1.id], key: K3 })).body.code).toBe(0);
    expect((await detail()).key.split('\n').sort()).toEqual([maskKey(K1), maskKey(K3)].sort());
    expect((await keys()).some((k) => k.id === k2.id)).toBe(false);
    // An API client sending detail's masks back keeps the same keys (nothing new is stored).
    const count = (await keys()).length;
    const masks = (await detail()).key;
    expect((await a.post(`${A}/update`, { ...base, id, key: masks })).body.code).toBe(0);
    expect((await detail()).key).toBe(masks);
    expect(await keys()).toHaveLength(count);
    // A mask that matches no bound key, or a foreign key id, is refused before anything is written.
    const stale = await a.post(`${A}/update`, { ...base, id, name: 'Renamed', key: maskKey('sk-gone-key-zzzz9999') });
    expect(stale.body).toMatchObject({ code: 51 });
    expect(stale.body.message).toContain('key');
    expect((await a.post(`${A}/update`, { ...base, id, name: 'Renamed', key_ids: ['nope'] })).body.message).toContain('key_ids');
    expect((await a.get(`${A}/detail`, { id })).body.data.name).toBe('Masked');

    // The reveal: one bound key in full, recorded in the audit log (the key itself never is).
    const current = (await detail()).keys.find((k) => k.key === maskKey(K3))!;
    const reveal = await a.post(`${A}/key/reveal`, { id, key_id: current.id });
    expect(reveal.body).toMatchObject({ code: 0, data: { value: K3 } });
    expect((await a.post(`${A}/key/reveal`, { id, key_id: k2.id })).body).toMatchObject({ code: 50 });
    const rows = await server.app.ctx.db.selectFrom('audit_logs').selectAll().where('action', '=', `${A}/key/reveal`).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'reveal', table_name: 'provider_keys', record_ids: JSON.stringify([current.id]), account: 'admin' });
    expect(JSON.stringify(rows)).not.toContain(K3);
    // The model key's own detail is masked too; its copy button stays the explicit reveal.
    expect((await a.get('/api/v1/key/detail', { id: current.id, type: 2 })).body.data.key).toBe(maskKey(K3));
    for (const c of [reseller, user]) expect((await c.post(`${A}/key/reveal`, { id, key_id: current.id })).status).toBe(401);
  });

  it('is admin-only', async () => {
    for (const c of [reseller, user]) {
      for (const verb of ['create', 'update', 'delete', 'page', 'change/status', 'batch/operate']) {
        const r = await c.post(`${A}/${verb}`, {});
        expect(r.status, verb).toBe(401);
        expect(r.body.code).toBe(401);
      }
      expect((await c.get(`${A}/detail`, { id: '1' })).status).toBe(401);
      expect((await c.get(`${A}/list`)).status).toBe(401);
    }
  });
});
