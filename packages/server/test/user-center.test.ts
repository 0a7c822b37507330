import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSysSection } from '../src/settings/sys-config';
import { Client, dialects, startServer, startSmtp, type TestServer } from './helpers';

describe.each(dialects)('user center on %s', (dialect) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let alice: Client;
  let bob: Client;

  async function signUp(email: string): Promise<Client> {
    const c = new Client(server.url);
    await c.post('/api/v1/common/email-code', { email, action: 'login', channel: 'user' });
    const r = await c.post('/api/v1/auth/login', { account: email, code: await smtp.codeFor(email), channel: 'user', method: 'code' });
    c.token = r.body.data.token;
    return c;
  }

  /** Sets a known password through the recovery flow. */
  async function setPassword(email: string, password: string) {
    const c = new Client(server.url);
    smtp.mails.length = 0;
    await c.post('/api/v1/common/email-code', { email, action: 'forget_password', channel: 'user' });
    const r = await c.post('/api/v1/auth/forget', { account: email, password, code: await smtp.codeFor(email), channel: 'user' });
    expect(r.body.code).toBe(0);
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startServer(dialect);
    await setSysSection(server.app.ctx.db, 'email', { open: true, host: '127.0.0.1', port: smtp.port });
    alice = await signUp('alice@example.com');
    bob = await signUp('bob@example.com');
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('updates the name and profile within docs/SPEC.md §5 limits', async () => {
    expect((await alice.post('/api/v1/user/update/info', { name: '爱丽丝_A', profile: 'hello' })).body.code).toBe(0);
    expect((await alice.get('/api/v1/user/info')).body.data).toMatchObject({ name: '爱丽丝_A', profile: 'hello' });
    const short = await alice.post('/api/v1/user/update/info', { name: 'a' });
    expect(short.body).toMatchObject({ code: 51 });
    expect(short.body.message).toContain('名称为2-30位');
    const bad = await alice.post('/api/v1/user/update/info', { name: 'bad name!' });
    expect(bad.body.code).toBe(51);
    const long = await alice.post('/api/v1/user/update/info', { name: 'Alice', profile: 'x'.repeat(201) });
    expect(long.body.message).toContain('个人简介最多200个字符');
    expect((await alice.get('/api/v1/user/info')).body.data.name).toBe('爱丽丝_A');
  });

  it('changes the password with the strong-password rules', async () => {
    await setPassword('alice@example.com', 'Start#123');
    // Recovery ended alice's sessions; sign in again with the recovered password.
    await alice.login('user', 'alice@example.com', 'Start#123');
    const weak = await alice.post('/api/v1/user/change/password', { old_password: 'Start#123', new_password: 'abcdef' });
    expect(weak.body.code).toBe(51);
    expect(weak.body.message).toContain('须包含数字、大小写字母和符号');
    const spaced = await alice.post('/api/v1/user/change/password', { old_password: 'Start#123', new_password: 'Ab1# cdef' });
    expect(spaced.body.code).toBe(51);
    const same = await alice.post('/api/v1/user/change/password', { old_password: 'Start#123', new_password: 'Start#123' });
    expect(same.body.message).toBe('新密码不能与原密码相同');
    const wrongOld = await alice.post('/api/v1/user/change/password', { old_password: 'Wrong#123', new_password: 'Next#4567' });
    expect(wrongOld.body.message).toBe('原密码错误');
    const other = new Client(server.url);
    await other.login('user', 'alice@example.com', 'Start#123');
    expect((await alice.post('/api/v1/user/change/password', { old_password: 'Start#123', new_password: 'Next#4567' })).body.code).toBe(0);
    expect((await alice.get('/api/v1/user/info')).status).toBe(200);
    expect((await other.get('/api/v1/user/info')).status).toBe(401);
    await new Client(server.url).login('user', 'alice@example.com', 'Next#4567');
  });

  it('binds a new email and a phone by code and password', async () => {
    smtp.mails.length = 0;
    await alice.post('/api/v1/common/email-code', { email: 'alice2@example.com', action: 'change_email', channel: 'user' });
    const code = await smtp.codeFor('alice2@example.com');
    const wrongPw = await alice.post('/api/v1/user/change/email', { email: 'alice2@example.com', code, password: 'nope-nope' });
    expect(wrongPw.body.message).toBe('密码错误');
    const taken = await alice.post('/api/v1/user/change/email', { email: 'bob@example.com', code, password: 'Next#4567' });
    expect(taken.body.message).toBe('邮箱已被使用');
    expect((await alice.post('/api/v1/user/change/email', { email: 'alice2@example.com', code, password: 'Next#4567' })).body.code).toBe(0);
    expect((await alice.get('/api/v1/user/info')).body.data.email).toBe('alice2@example.com');

    expect((await alice.post('/api/v1/common/sms-code', { phone: '13800000000', action: 'change_phone', channel: 'user' })).body.code).toBe(0);
    const line = server.logs.findLast((l) => l.includes('13800000000'));
    const smsCode = line?.match(/verification code (\d{6})/)?.[1];
    expect(smsCode).toMatch(/^\d{6}$/);
    const badPhone = await alice.post('/api/v1/user/change/phone', { phone: 'call me', code: smsCode, password: 'Next#4567' });
    expect(badPhone.body.message).toContain('手机号格式不正确');
    expect((await alice.post('/api/v1/user/change/phone', { phone: '13800000000', code: smsCode, password: 'Next#4567' })).body.code).toBe(0);
    expect((await alice.get('/api/v1/user/info')).body.data.phone).toBe('13800000000');
  });

  it('keeps certification records private and withdrawable only while auditing', async () => {
    const bad = await alice.post('/api/v1/user/certification/create', { real_name: 'Alice Liddell', id_number: '12-34' });
    expect(bad.body.code).toBe(51);
    const created = await alice.post('/api/v1/user/certification/create', { real_name: 'Alice Liddell', id_type: 'passport', id_number: 'E12345678' });
    expect(created.body.code).toBe(0);
    const id = created.body.data.id as string;
    const twice = await alice.post('/api/v1/user/certification/create', { real_name: 'Alice Liddell', id_number: 'E12345678' });
    expect(twice.body.message).toBe('已有审核中或已通过的认证记录');
    const page = await alice.post('/api/v1/user/certification/page', { current: 1, pageSize: 20 });
    expect(page.body.data.paging).toMatchObject({ current: 1, pageSize: 20, total: 1 });
    expect(page.body.data.items[0]).toMatchObject({ id, status: 2, id_number: 'E12**5678', real_name: 'Alice Liddell' });
    const stored = await server.app.ctx.db.selectFrom('certifications').select('id_number').where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.id_number).not.toContain('E12345678');
    // Bob cannot see or withdraw Alice's record.
    expect((await bob.get('/api/v1/user/certification/detail', { id })).body).toMatchObject({ code: 50, message: '记录不存在' });
    expect((await bob.post('/api/v1/user/certification/withdraw', { id })).body.code).toBe(50);
    expect((await bob.post('/api/v1/user/certification/page', {})).body.data.items).toEqual([]);
    expect((await alice.get('/api/v1/user/certification/detail', { id })).body.data.status).toBe(2);
    expect((await alice.post('/api/v1/user/certification/withdraw', { id })).body.code).toBe(0);
    expect((await alice.post('/api/v1/user/certification/withdraw', { id })).body.message).toBe('只能撤回审核中的认证');
  });

  it('refuses every user-center call without a session', async () => {
    const anon = new Client(server.url);
    for (const url of ['/api/v1/user/update/info', '/api/v1/user/change/password', '/api/v1/user/certification/page']) {
      const r = await anon.post(url, {});
      expect(r.status).toBe(401);
      expect(r.body.code).toBe(401);
    }
  });
});
