import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, Client, dialects, signedIn, startServer, type TestServer } from './helpers';

describe.each(dialects)('corps on %s', (dialect) => {
  let server: TestServer;
  let a: Client;
  let reseller: Client;
  let user: Client;

  beforeAll(async () => {
    server = await startServer(dialect);
    a = await admin(server);
    reseller = await signedIn(server, 'reseller', 'res1');
    user = await signedIn(server, 'user', 'user1');
  });
  afterAll(() => server?.close());

  it('creates, pages, filters, updates and deletes', async () => {
    const events: string[] = [];
    server.app.ctx.bus.subscribe((e) => events.push(`${e.entity}:${e.op}`));
    const openai = await a.post('/api/v1/corp/create', { name: 'OpenAI', code: 'OpenAI', is_public: true });
    expect(openai.body.code).toBe(0);
    const anthropic = await a.post('/api/v1/corp/create', { name: 'Anthropic 100%_', code: 'Anthropic', remark: 'claude' });
    expect(events).toEqual(['corps:create', 'corps:create']);
    const page = await a.post('/api/v1/corp/page', { current: 1, pageSize: 20 });
    expect(page.body.data.paging).toEqual({ current: 1, pageSize: 20, total: 2 });
    expect(page.body.data.items.map((c: { sort: number }) => c.sort).sort()).toEqual([1, 2]);
    const byName = await a.post('/api/v1/corp/page', { name: 'openai' });
    expect(byName.body.data.items.map((c: { name: string }) => c.name)).toEqual(['OpenAI']);
    const literal = await a.post('/api/v1/corp/page', { name: '100%_' });
    expect(literal.body.data.items).toHaveLength(1);
    expect((await a.post('/api/v1/corp/page', { name: '%' })).body.data.items).toHaveLength(1);
    const pub = await a.post('/api/v1/corp/page', { is_public: 'true' });
    expect(pub.body.data.items.map((c: { name: string }) => c.name)).toEqual(['OpenAI']);

    const id = anthropic.body.data.id;
    expect((await a.post('/api/v1/corp/update', { id, name: 'Anthropic', code: 'Anthropic', sort: 9 })).body.code).toBe(0);
    const detail = await a.get('/api/v1/corp/detail', { id });
    expect(detail.body.data).toMatchObject({ id, name: 'Anthropic', sort: 9, is_public: false, status: 1 });
    expect(detail.body.data.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    expect((await a.post('/api/v1/corp/change/status', { id, status: 2 })).body.code).toBe(0);
    const disabledLast = await a.post('/api/v1/corp/page', {});
    expect(disabledLast.body.data.items.map((c: { status: number }) => c.status)).toEqual([1, 2]);
    expect((await a.post('/api/v1/corp/change/public', { id, is_public: true })).body.code).toBe(0);

    const list = await user.get('/api/v1/corp/list');
    expect(list.body.data.items.map((c: { name: string }) => c.name)).toEqual(['OpenAI']);
    await a.post('/api/v1/corp/batch/operate', { action: 'status', ids: [id], value: 1 });
    expect((await user.get('/api/v1/corp/list')).body.data.items).toHaveLength(2);

    expect((await a.post('/api/v1/corp/delete', { id })).body.code).toBe(0);
    expect((await a.get('/api/v1/corp/detail', { id })).body).toMatchObject({ code: 50, message: '记录不存在' });
  });

  it('rejects bad input naming the field, writing nothing', async () => {
    const before = (await a.post('/api/v1/corp/page', {})).body.data.paging.total;
    const long = await a.post('/api/v1/corp/create', { name: 'x'.repeat(101), code: 'OpenAI' });
    expect(long.body.code).toBe(51);
    expect(long.body.message).toContain('name');
    const status = await a.post('/api/v1/corp/create', { name: 'X', code: 'OpenAI', status: 3 });
    expect(status.body.message).toContain('status');
    const action = await a.post('/api/v1/corp/batch/operate', { action: 'explode', ids: ['1'] });
    expect(action.body).toMatchObject({ code: 51 });
    expect(action.body.message).toContain('action');
    const ghost = await a.post('/api/v1/corp/update', { id: '42', name: 'X', code: 'Y' });
    expect(ghost.body.message).toBe('记录不存在');
    const partly = await a.post('/api/v1/corp/batch/operate', { action: 'delete', ids: ['42'] });
    expect(partly.body.code).toBe(50);
    expect((await a.post('/api/v1/corp/page', {})).body.data.paging.total).toBe(before);
  });

  it('is admin-only except the public list', async () => {
    for (const c of [reseller, user]) {
      for (const verb of ['page', 'create', 'update', 'delete', 'change/status', 'change/public', 'batch/operate']) {
        const r = await c.post(`/api/v1/corp/${verb}`, {});
        expect(r.status).toBe(401);
        expect(r.body.code).toBe(401);
      }
      expect((await c.get('/api/v1/corp/detail', { id: '1' })).status).toBe(401);
      expect((await c.get('/api/v1/corp/list')).body.code).toBe(0);
    }
  });
});
