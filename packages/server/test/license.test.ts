// Licenses over HTTP on both databases: issuing (Ed25519-signed secret keys), installing, the info
// screen's data, rejection of tampered and truncated keys, and code 9 for admins when the installed
// license is expired, invalid or exceeded (the license endpoints keep working).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, Client, dialects, signedIn, startServer, type TestServer } from './helpers';

const L = '/api/v1/license';
const INSTALL = '/api/v1/sys/license/install';
const INFO = '/api/v1/sys/license/info';
type Signed = Client & { userId: number };

describe.each(dialects)('licenses on %s', (dialect) => {
  let server: TestServer;
  let a: Client;
  let res: Signed;
  let user: Signed;

  const issue = async (body: Record<string, unknown>) => {
    const r = await a.post(`${L}/create`, { name: 'ACME', ...body });
    expect(r.body).toMatchObject({ code: 0 });
    return (await a.get(`${L}/detail`, { id: r.body.data.id })).body.data as { id: string; secret_key: string; sign: string };
  };

  beforeAll(async () => {
    server = await startServer(dialect);
    a = await admin(server);
    res = await signedIn(server, 'reseller', 'lres');
    user = await signedIn(server, 'user', 'luser');
  });
  afterAll(() => server?.close());

  it('is admin-only', async () => {
    for (const c of [res, user]) {
      for (const url of [`${L}/create`, `${L}/update`, `${L}/delete`, `${L}/page`, `${L}/change/status`, INSTALL]) expect((await c.post(url, { name: 'x', secret_key: 'x' })).status).toBe(401);
      expect((await c.get(INFO)).status).toBe(401);
      expect((await c.get(`${L}/detail`, { id: 'x' })).status).toBe(401);
    }
  });

  it('runs without limits when none is installed', async () => {
    const info = (await a.get(INFO)).body;
    expect(info).toMatchObject({ code: 0, data: { state: 'none', license: null, self_issued: true, usage: { users: 2, apps: 0, nodes: 1 } } });
  });

  it('signs on create and update; the record reads back', async () => {
    const lic = await issue({ email: 'ops@acme.example', phone: '13800000000', type: 2, node: 3, user_count: 50, app_count: 20, expires_at: '2099-01-01 00:00:00', is_node_visible: true, remark: 'r', nodes: [{ ip: '10.0.0.1', mac: 'aa:bb', node_id: 'n1' }] });
    expect(lic).toMatchObject({ name: 'ACME', email: 'ops@acme.example', node: 3, user_count: 50, app_count: 20, expires_at: '2099-01-01 00:00:00', is_node_visible: true, nodes: [{ ip: '10.0.0.1', mac: 'aa:bb', node_id: 'n1' }], status: 1 });
    expect(lic.secret_key).toMatch(/^FGL1\.[\w-]+\.[\w-]+$/);
    expect(Buffer.from(lic.sign, 'base64url')).toHaveLength(64);
    expect(lic.secret_key.endsWith(lic.sign)).toBe(true);
    expect((await a.post(`${L}/update`, { id: lic.id, name: 'ACME 2', user_count: 60 })).body.code).toBe(0);
    const again = (await a.get(`${L}/detail`, { id: lic.id })).body.data;
    expect(again.secret_key).not.toBe(lic.secret_key);
    expect((await a.post(`${L}/page`, { name: 'acme' })).body.data.items).toHaveLength(1);
    // Bad input names the field.
    const bad = await a.post(`${L}/create`, { name: 'X', email: 'not-mail' });
    expect(bad.body.code).toBe(51);
    expect(bad.body.message).toContain('email');
  });

  it('installs a signed license and shows it with its limits and use', async () => {
    const lic = await issue({ user_count: 100, app_count: 10, node: 2, expires_at: '2099-06-01 12:00:00', nodes: [{ ip: '10.0.0.9', mac: '', node_id: 'x' }] });
    expect((await a.post(INSTALL, { secret_key: `  ${lic.secret_key}\n` })).body).toMatchObject({ code: 0, data: { id: lic.id } });
    const info = (await a.get(INFO)).body.data;
    expect(info).toMatchObject({ state: 'valid', license: { id: lic.id, name: 'ACME', user_count: 100, app_count: 10, node: 2, expires_at: '2099-06-01 12:00:00', nodes: [] }, usage: { users: 2, apps: 0, nodes: 1 }, exceeded: [] });
    expect(info.installed_at).toMatch(/^\d{4}-/);
    expect((await a.post('/api/v1/corp/page', {})).body.code).toBe(0);
  });

  it('rejects a tampered secret key and a truncated one', async () => {
    const lic = await issue({ user_count: 5 });
    const [tag, body, sig] = lic.secret_key.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    for (const change of [{ user_count: 5000 }, { expires_at: 4102444800000 }, { name: 'Other' }]) {
      const forged = `${tag}.${Buffer.from(JSON.stringify({ ...payload, ...change })).toString('base64url')}.${sig}`;
      const r = await a.post(INSTALL, { secret_key: forged });
      expect(r.body).toMatchObject({ code: 50, message: '授权密钥校验失败，授权内容已被篡改或不是本产品签发' });
    }
    for (const cut of [lic.secret_key.slice(0, -10), lic.secret_key.slice(0, 30), 'FGL1.', 'garbage']) {
      expect((await a.post(INSTALL, { secret_key: cut })).body).toMatchObject({ code: 51, message: '授权密钥必须完整' });
    }
    a.lang = 'en-US';
    expect((await a.post(INSTALL, { secret_key: lic.secret_key.slice(0, -3) })).body.message).toBe('The license secret key must be complete');
    a.lang = 'zh-CN';
    // Nothing was installed by the failures: the earlier license is still in force.
    expect((await a.get(INFO)).body.data.license.user_count).toBe(100);
  });

  it('answers code 9 to admin console calls with an expired license; license endpoints still work', async () => {
    const valid = await issue({});
    const expired = await issue({ expires_at: '2020-01-01 00:00:00' });
    expect((await a.post(INSTALL, { secret_key: expired.secret_key })).body.code).toBe(0);
    const blocked = await a.post('/api/v1/corp/page', {});
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({ code: 9, message: '授权已过期，请更新授权' });
    expect((await a.get('/api/v1/group/list')).body.code).toBe(9);
    // Others keep working; the admin can still reach its session and the license screens.
    expect((await user.post('/api/v1/app/page', {})).body.code).toBe(0);
    expect((await a.get('/api/v1/user/info')).body.code).toBe(0);
    expect((await a.get(INFO)).body.data).toMatchObject({ state: 'expired' });
    expect((await a.post(`${L}/page`, {})).body.code).toBe(0);
    expect((await a.post(INSTALL, { secret_key: valid.secret_key })).body.code).toBe(0);
    expect((await a.post('/api/v1/corp/page', {})).body.code).toBe(0);
  });

  it('answers code 9 when the installation has more users than licensed', async () => {
    const users = (await a.get(INFO)).body.data.usage.users as number;
    const lic = await issue({ user_count: users + 1 });
    expect((await a.post(INSTALL, { secret_key: lic.secret_key })).body.code).toBe(0);
    expect((await a.post('/api/v1/corp/page', {})).body.code).toBe(0);
    await signedIn(server, 'user', 'lextra1');
    await signedIn(server, 'user', 'lextra2');
    const r = await a.post('/api/v1/corp/page', {});
    expect(r.body.code).toBe(9);
    expect(r.body.message).toContain('users');
    expect((await a.get(INFO)).body.data).toMatchObject({ state: 'exceeded', exceeded: ['users'], usage: { users: users + 2 } });
  });

  it('treats an installed key that no longer verifies as invalid (code 9)', async () => {
    const lic = await issue({});
    const forged = lic.secret_key.replace(/\.([\w-])/, (_m, ch: string) => `.${ch === 'A' ? 'B' : 'A'}`);
    await server.app.ctx.db.updateTable('license_install').set({ secret_key: forged }).execute();
    const r = await a.post('/api/v1/corp/page', {});
    expect(r.body.code).toBe(9);
    expect((await a.get(INFO)).body.data.state).toBe('invalid');
    expect((await a.post(INSTALL, { secret_key: lic.secret_key })).body.code).toBe(0);
    expect((await a.post('/api/v1/corp/page', {})).body.code).toBe(0);
  });
});
