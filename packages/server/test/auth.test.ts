import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSysSection } from '../src/settings/sys-config';
import { Client, dialects, startServer, startSmtp, type TestServer } from './helpers';

describe.each(dialects)('sign-in and sessions on %s', (dialect) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let anon: Client;

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startServer(dialect);
    await setSysSection(server.app.ctx.db, 'email', { open: true, host: '127.0.0.1', port: smtp.port, from_name: 'FastGate' });
    anon = new Client(server.url);
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('answers health, public config and unknown API paths', async () => {
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'ok' });
    const site = await anon.post('/api/v1/open/site/config', { domain: 'example.com' });
    expect(site.body).toMatchObject({ code: 0, data: { title: '智元 Fast API', logo: '/logo.png', domain: 'example.com' } });
    expect(site.body.data).not.toHaveProperty('mail_password');
    const opts = await anon.get('/api/v1/open/sys/config');
    expect(opts.body.data.user_login_register).toMatchObject({ account_login: true, email_login: true, email_register: true });
    expect(opts.body.data.admin_login).not.toHaveProperty('email_register');
    const missing = await anon.get('/api/v1/no/such/thing');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 65, data: null });
  });

  it('signs the first admin in on the admin channel only', async () => {
    const admin = new Client(server.url);
    const r = await admin.post('/api/v1/auth/login', { account: 'admin', password: server.adminPassword, channel: 'admin', method: 'account' });
    expect(r.body.code).toBe(0);
    expect(r.body.data).toMatchObject({ type: 'Bearer', expires_in: 21600 });
    expect(r.body.data.token).toMatch(/^A[\w-]{40,}$/);
    admin.token = r.body.data.token;
    const info = await admin.get('/api/v1/user/info');
    expect(info.body.data).toMatchObject({ account: 'admin', role: 'admin', user_id: 1 });
    const wrongChannel = await anon.post('/api/v1/auth/login', { account: 'admin', password: server.adminPassword, channel: 'user' });
    expect(wrongChannel.body).toMatchObject({ code: 50, message: '账号或密码错误（连续错误5次将锁定30分钟）' });
  });

  it('rejects bad input with a clear envelope error and writes nothing', async () => {
    const badJson = await anon.raw('POST', '/api/v1/auth/login', '{bad', {});
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ code: 51, message: '请求体不是有效的 JSON' });
    const noChannel = await anon.post('/api/v1/auth/login', { account: 'x', password: 'y' });
    expect(noChannel.body.code).toBe(51);
    expect(noChannel.body.message).toContain('channel');
    const en = new Client(server.url, 'en-US');
    const unknown = await en.post('/api/v1/auth/login', { account: 'x', password: 'y', channel: 'boss' });
    expect(unknown.body.message).toMatch(/^Invalid field channel/);
    const long = await anon.post('/api/v1/auth/login', { account: 'a'.repeat(101), password: 'y', channel: 'user' });
    expect(long.body).toMatchObject({ code: 51 });
    expect(long.body.message).toContain('account');
    const wrongType = await anon.post('/api/v1/common/email-code', { email: 42, action: 'login', channel: 'user' });
    expect(wrongType.body.message).toContain('email');
    const users = await server.app.ctx.db.selectFrom('users').select('account').execute();
    expect(users.map((u) => u.account)).toEqual(['admin']);
  });

  it('registers an unknown email on code login and mails the code', async () => {
    const email = `new-${dialect}@example.com`;
    const sent = await anon.post('/api/v1/common/email-code', { email, action: 'login', channel: 'user' });
    expect(sent.body).toMatchObject({ code: 0 });
    const code = await smtp.codeFor(email);
    const wrong = await anon.post('/api/v1/auth/login', { account: email, code: code === '000000' ? '111111' : '000000', channel: 'user', method: 'code' });
    expect(wrong.body).toMatchObject({ code: 50, message: '验证码错误或已过期' });
    const user = new Client(server.url);
    const r = await user.post('/api/v1/auth/login', { account: email, code, channel: 'user', method: 'code' });
    expect(r.body.code).toBe(0);
    expect(r.body.data.token).toMatch(/^U/);
    user.token = r.body.data.token;
    const info = await user.get('/api/v1/user/info');
    expect(info.body.data).toMatchObject({ role: 'user', email, account: email });
    // The code is spent.
    const again = await anon.post('/api/v1/auth/login', { account: email, code, channel: 'user', method: 'code' });
    expect(again.body.code).toBe(50);
  });

  it('never creates an admin from a code login', async () => {
    // The same answer as for a known admin (no enumeration), but no code is mailed and none signs in.
    const r = await anon.post('/api/v1/common/email-code', { email: 'stranger@example.com', action: 'login', channel: 'admin' });
    expect(r.body).toMatchObject({ code: 0 });
    await new Promise((res) => setTimeout(res, 200));
    expect(smtp.mails.filter((m) => m.to === 'stranger@example.com')).toEqual([]);
  });

  it('voids a code after five wrong tries and limits sends to five per 30 minutes', async () => {
    const email = `tries-${dialect}@example.com`;
    await anon.post('/api/v1/common/email-code', { email, action: 'login', channel: 'user' });
    const code = await smtp.codeFor(email);
    const wrong = code === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) await anon.post('/api/v1/auth/login', { account: email, code: wrong, channel: 'user', method: 'code' });
    const late = await anon.post('/api/v1/auth/login', { account: email, code, channel: 'user', method: 'code' });
    expect(late.body.code).toBe(50);
    for (let i = 0; i < 4; i++) expect((await anon.post('/api/v1/common/email-code', { email, action: 'login', channel: 'user' })).body.code).toBe(0);
    const sixth = await anon.post('/api/v1/common/email-code', { email, action: 'login', channel: 'user' });
    expect(sixth.body).toMatchObject({ code: 50, message: '验证码发送过于频繁，请稍后再试' });
  });

  it('registers by code, recovers a password, and ends old sessions', async () => {
    const email = `reg-${dialect}@example.com`;
    await anon.post('/api/v1/common/email-code', { email, action: 'register', channel: 'user' });
    const reg = await anon.post('/api/v1/auth/register', { account: email, password: 'first-pass', code: await smtp.codeFor(email), channel: 'user' });
    expect(reg.body.code).toBe(0);
    // A taken address gets the same answer as a free one, and no code.
    smtp.mails.length = 0;
    const dup = await anon.post('/api/v1/common/email-code', { email, action: 'register', channel: 'user' });
    expect(dup.body.code).toBe(0);
    await new Promise((res) => setTimeout(res, 200));
    expect(smtp.mails).toEqual([]);
    const old = new Client(server.url);
    await old.login('user', email, 'first-pass');
    smtp.mails.length = 0;
    await anon.post('/api/v1/common/email-code', { email, action: 'forget_password', channel: 'user' });
    const forget = await anon.post('/api/v1/auth/forget', { account: email, password: 'second-pass', code: await smtp.codeFor(email), channel: 'user' });
    expect(forget.body.code).toBe(0);
    expect((await old.get('/api/v1/user/info')).status).toBe(401);
    await expect(new Client(server.url).login('user', email, 'first-pass')).rejects.toThrow();
    await new Client(server.url).login('user', email, 'second-pass');
    const resellerReg = await anon.post('/api/v1/auth/register', { account: 'r@example.com', password: 'secret1', code: '123456', channel: 'reseller' });
    expect(resellerReg.body).toMatchObject({ code: 50, message: '暂未开放注册' });
  });

  it('locks an account for 30 minutes after five failed logins', async () => {
    const email = `lock-${dialect}@example.com`;
    await anon.post('/api/v1/common/email-code', { email, action: 'register', channel: 'user' });
    await anon.post('/api/v1/auth/register', { account: email, password: 'right-pass', code: await smtp.codeFor(email), channel: 'user' });
    const refused = '账号或密码错误（连续错误5次将锁定30分钟）';
    for (let i = 0; i < 5; i++) {
      expect((await anon.post('/api/v1/auth/login', { account: email, password: 'wrong-pass', channel: 'user' })).body.message).toBe(refused);
    }
    // Locked: the right password gets the very same answer as a wrong one.
    const right = await anon.post('/api/v1/auth/login', { account: email, password: 'right-pass', channel: 'user' });
    expect(right.body).toMatchObject({ code: 50, message: refused });
    const row = await server.app.ctx.db.selectFrom('users').select('locked_until').where('email', '=', email).executeTakeFirstOrThrow();
    expect(Number(row.locked_until)).toBeGreaterThan(Date.now() + 29 * 60_000);
  });

  it('revokes the session on logout and demands the XSRF pair', async () => {
    const admin = new Client(server.url);
    await admin.login('admin', 'admin', server.adminPassword);
    const noXsrf = await fetch(`${server.url}/api/v1/user/update/info`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Root' }),
    });
    expect(noXsrf.status).toBe(403);
    expect(((await noXsrf.json()) as { code: number }).code).toBe(403);
    expect((await admin.post('/api/v1/user/update/info', { name: 'Root' })).body.code).toBe(0);
    expect((await admin.post('/api/v1/auth/logout')).body.code).toBe(0);
    const after = await admin.get('/api/v1/user/info');
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ code: 401 });
  });

  it('takes the session lifetime from the system config', async () => {
    await setSysSection(server.app.ctx.db, 'admin_login', { session_expire: 1 });
    const admin = new Client(server.url);
    const r = await admin.post('/api/v1/auth/login', { account: 'admin', password: server.adminPassword, channel: 'admin' });
    expect(r.body.data.expires_in).toBe(1);
    admin.token = r.body.data.token;
    await new Promise((res) => setTimeout(res, 1100));
    expect((await admin.get('/api/v1/user/info')).status).toBe(401);
    await setSysSection(server.app.ctx.db, 'admin_login', { session_expire: 21600 });
  });

  it('serves the menu a role may open', async () => {
    const admin = new Client(server.url);
    await admin.login('admin', 'admin', server.adminPassword);
    const names = JSON.stringify((await admin.post('/api/user/menu')).body.data.items);
    expect(names).toContain('"corp.list"');
    expect(names).not.toContain('"my.model"');
    const email = `new-${dialect}@example.com`;
    smtp.mails.length = 0;
    await anon.post('/api/v1/common/email-code', { email, action: 'login', channel: 'user' });
    const user = new Client(server.url);
    user.token = (await user.post('/api/v1/auth/login', { account: email, code: await smtp.codeFor(email), channel: 'user', method: 'code' })).body.data.token;
    const userMenu = JSON.stringify((await user.post('/api/user/menu')).body.data.items);
    expect(userMenu).toContain('"my.model"');
    expect(userMenu).not.toContain('"corp.list"');
    expect((await anon.post('/api/user/menu')).status).toBe(401);
  });
});

describe('first admin without configured credentials', () => {
  it('gets a random password printed once in the log', async () => {
    const server = await startServer('sqlite', { ADMIN_ACCOUNT: '', ADMIN_PASSWORD: '' });
    try {
      const line = server.logs.find((l) => l.includes('created the first admin'));
      const password = line?.match(/password: (\S+) \(shown once/)?.[1];
      expect(password).toBeTruthy();
      expect(password).not.toBe('admin');
      await new Client(server.url).login('admin', 'admin', password!);
    } finally {
      await server.close();
    }
  });
});
