import { SYS_CONFIG_DEFAULTS, SYS_CONFIG_SECTIONS } from '@fastgate/core/sys-config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, Client, dialects, signedIn, startServer, type TestServer } from './helpers';

const settle = () => new Promise((r) => setTimeout(r, 60));

describe.each(dialects)('system config on %s', (dialect) => {
  let server: TestServer;
  let a: Client;
  let reseller: Client;
  let user: Client;

  beforeAll(async () => {
    server = await startServer(dialect);
    a = await admin(server);
    reseller = await signedIn(server, 'reseller', 'sys-res1');
    user = await signedIn(server, 'user', 'sys-user1');
  });
  afterAll(() => server?.close());

  it('answers the whole config with defaults, admin only', async () => {
    const detail = await a.get('/api/v1/sys/config/detail');
    expect(detail.body.code).toBe(0);
    expect(Object.keys(detail.body.data).sort()).toEqual([...SYS_CONFIG_SECTIONS].sort());
    expect(detail.body.data.base).toEqual(SYS_CONFIG_DEFAULTS.base);
    expect(detail.body.data.digital_human).toEqual({ task_timeout: 0 });
    expect(detail.body.data.email).toMatchObject({ password: '', password_set: false });

    for (const client of [reseller, user]) {
      expect((await client.get('/api/v1/sys/config/detail')).status).toBe(401);
      for (const [path, body] of [
        ['update', { action: 'base', base: { err_retry: 1 } }],
        ['change/status', { action: 'log', open: false }],
        ['reset', { action: 'base' }],
        ['refresh', { action: 'refresh_api_cache' }],
      ] as const) {
        const r = await client.post(`/api/v1/sys/config/${path}`, body);
        expect(r.status).toBe(401);
        expect(r.body.code).toBe(401);
      }
    }
    expect((await new Client(server.url).get('/api/v1/sys/config/detail')).status).toBe(401);
    expect((await a.get('/api/v1/sys/config/detail')).body.data.base.err_retry).toBe(3);
  });

  it('updates one section at a time and publishes the change', async () => {
    const events: string[] = [];
    const stop = server.app.ctx.bus.subscribe((e) => events.push(`${e.entity}:${e.op}:${e.ids.join(',')}`));
    for (const section of SYS_CONFIG_SECTIONS) {
      const r = await a.post('/api/v1/sys/config/update', { action: section, [section]: SYS_CONFIG_DEFAULTS[section] });
      expect(r.body, `${section}: ${r.body.message}`).toMatchObject({ code: 0 });
    }
    expect(events).toEqual(SYS_CONFIG_SECTIONS.map((s) => `sys_configs:update:${s}`));
    stop();

    await a.post('/api/v1/sys/config/update', { action: 'statistics', statistics: { limit: 5000 }, base: { err_retry: 9 } });
    const d = (await a.get('/api/v1/sys/config/detail')).body.data;
    expect(d.statistics).toEqual({ ...SYS_CONFIG_DEFAULTS.statistics, limit: 5000 });
    expect(d.base.err_retry).toBe(3); // only the named section is saved

    await a.post('/api/v1/sys/config/update', { action: 'user_shield_error', user_shield_error: { open: true, errors: ['secret upstream text', 'another'] } });
    expect((await a.get('/api/v1/sys/config/detail')).body.data.user_shield_error).toEqual({ open: true, errors: ['secret upstream text', 'another'] });
    await a.post('/api/v1/sys/config/update', { action: 'digital_human', digital_human: { task_timeout: 30 } });
    await a.post('/api/v1/sys/config/update', { action: 'task', task: { lock_minutes: 5 } });
    const after = (await a.get('/api/v1/sys/config/detail')).body.data;
    expect([after.digital_human.task_timeout, after.task.lock_minutes]).toEqual([30, 5]);
  });

  it('rejects bad input naming the field, writing nothing', async () => {
    const before = (await a.get('/api/v1/sys/config/detail')).body.data;
    const cases: [object, string][] = [
      [{ action: 'nope', nope: {} }, 'nope'],
      [{ action: 'admin_login', admin_login: { session_expire: 'soon' } }, 'admin_login.session_expire'],
      [{ action: 'admin_login', admin_login: { session_expire: 10 } }, 'admin_login.session_expire'],
      [{ action: 'base', base: { err_retry: 1.5 } }, 'base.err_retry'],
      [{ action: 'email', email: { host: 'bad host', port: 25 } }, 'email.host'],
      [{ action: 'email', email: { port: 0 } }, 'email.port'],
      [{ action: 'auto_disabled_error', auto_disabled_error: { errors: ['ok', ''] } }, 'auto_disabled_error.errors.1'],
      [{ action: 'auto_enable_error', auto_enable_error: { enable_errors: [{ cron: '', enable_time: 60, error: '' }] } }, 'auto_enable_error.enable_errors.0.cron'],
      [{ action: 'log', log: { chat_records: ['secrets'] } }, 'log.chat_records.0'],
      [{ action: 'base' }, 'base'],
    ];
    for (const [body, field] of cases) {
      const r = await a.post('/api/v1/sys/config/update', body);
      expect(r.body.code, JSON.stringify(body)).toBe(51);
      expect(r.body.message).toContain(field);
    }
    expect((await a.post('/api/v1/sys/config/change/status', { action: 'base', open: true })).body.code).toBe(51);
    expect((await a.post('/api/v1/sys/config/change/status', { action: 'nope', open: true })).body.message).toContain('action');
    expect((await a.post('/api/v1/sys/config/reset', { action: 'nope' })).body.code).toBe(51);
    expect((await a.post('/api/v1/sys/config/refresh', { action: 'other' })).body.code).toBe(51);
    expect((await a.get('/api/v1/sys/config/detail')).body.data).toEqual(before);
  });

  it('switches, resets and refreshes', async () => {
    await a.post('/api/v1/sys/config/update', { action: 'not_retry_error', not_retry_error: { errors: ['only this'] } });
    expect((await a.post('/api/v1/sys/config/change/status', { action: 'not_retry_error', open: false })).body.code).toBe(0);
    expect((await a.get('/api/v1/sys/config/detail')).body.data.not_retry_error).toEqual({ open: false, errors: ['only this'] });
    expect((await a.post('/api/v1/sys/config/reset', { action: 'not_retry_error' })).body.code).toBe(0);
    expect((await a.get('/api/v1/sys/config/detail')).body.data.not_retry_error).toEqual(SYS_CONFIG_DEFAULTS.not_retry_error);

    const events: string[] = [];
    const stop = server.app.ctx.bus.subscribe((e) => events.push(e.entity));
    expect((await a.post('/api/v1/sys/config/refresh', { action: 'refresh_api_cache' })).body.code).toBe(0);
    stop();
    expect(events).toEqual(expect.arrayContaining(['users', 'apps', 'app_keys', 'groups', 'models', 'model_agents', 'provider_keys', 'corps', 'sys_configs']));
  });

  it('stores the email password encrypted and keeps it on an empty update', async () => {
    await a.post('/api/v1/sys/config/update', { action: 'email', email: { open: true, host: 'smtp.example.com', port: 587, user_name: 'bot', password: 'mail-pass', from_name: 'FG' } });
    const row = await server.app.ctx.db.selectFrom('sys_configs').select('value').where('section', '=', 'email').executeTakeFirstOrThrow();
    expect(row.value).not.toContain('mail-pass');
    const stored = JSON.parse(row.value).password as string;
    expect(server.app.ctx.secrets.decrypt(stored)).toBe('mail-pass');
    const detail = (await a.get('/api/v1/sys/config/detail')).body.data.email;
    expect(detail).toMatchObject({ host: 'smtp.example.com', password: '', password_set: true });
    await a.post('/api/v1/sys/config/update', { action: 'email', email: { ...detail, from_name: 'FastGate' } });
    const again = JSON.parse((await server.app.ctx.db.selectFrom('sys_configs').select('value').where('section', '=', 'email').executeTakeFirstOrThrow()).value);
    expect(again).not.toHaveProperty('password_set');
    expect(server.app.ctx.secrets.decrypt(again.password)).toBe('mail-pass');
    await a.post('/api/v1/sys/config/reset', { action: 'email' });
  });

  it('session expiry applies to the next login; error lists reach the gateway without a restart', async () => {
    expect((await a.post('/api/v1/sys/config/update', { action: 'admin_login', admin_login: { session_expire: 3600 } })).body.code).toBe(0);
    const login = await new Client(server.url).post('/api/v1/auth/login', { account: 'admin', password: server.adminPassword, channel: 'admin', method: 'account' });
    expect(login.body.data.expires_in).toBe(3600);
    const userLogin = await new Client(server.url).post('/api/v1/auth/login', { account: 'sys-user1', password: 'Passw0rd!', channel: 'user', method: 'account' });
    expect(userLogin.body.data.expires_in).toBe(21600);

    // Login options of the public login pages follow too.
    await a.post('/api/v1/sys/config/update', { action: 'user_login_register', user_login_register: { email_register: false } });
    expect((await new Client(server.url).get('/api/v1/open/sys/config')).body.data.user_login_register.email_register).toBe(false);

    await a.post('/api/v1/sys/config/update', { action: 'auto_disabled_error', auto_disabled_error: { open: true, errors: ['key revoked upstream'] } });
    await settle();
    expect(server.app.gateway.snapshot.sys.auto_disabled_error).toEqual({ open: true, errors: ['key revoked upstream'] });
    await a.post('/api/v1/sys/config/change/status', { action: 'auto_disabled_error', open: false });
    await settle();
    expect(server.app.gateway.snapshot.sys.auto_disabled_error.open).toBe(false);
    await a.post('/api/v1/sys/config/reset', { action: 'auto_disabled_error' });
    await settle();
    expect(server.app.gateway.snapshot.sys.auto_disabled_error).toEqual(SYS_CONFIG_DEFAULTS.auto_disabled_error);
    void dialect;
  });
});
