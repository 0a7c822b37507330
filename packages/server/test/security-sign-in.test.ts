// Sign-in under attack (issue 11, findings 3 and 4): the lockout holds against parallel guesses, a
// locked, an unknown and a wrong-password account answer alike, per-IP and per-account limits hold,
// and code sign-in registers only where that channel's registration is open.
import { SYS_CONFIG_DEFAULTS } from '@fastgate/core/sys-config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSysSection } from '../src/settings/sys-config';
import { Client, dialects, NO_SIGN_IN_LIMITS, startServer, startSmtp, type TestServer } from './helpers';

const REFUSED = '账号或密码错误（连续错误5次将锁定30分钟）';

describe.each(dialects)('sign-in under attack on %s', (dialect) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let anon: Client;
  const limits = (v: Partial<typeof NO_SIGN_IN_LIMITS>) => setSysSection(server.app.ctx.db, 'sign_in_limits', { ...NO_SIGN_IN_LIMITS, ...v });
  /** A client whose requests come from `ip` (the test connects from loopback, a trusted proxy). */
  const from = (ip: string) => {
    const c = new Client(server.url);
    const raw = c.raw.bind(c);
    c.raw = (method, url, body, headers = {}) => raw(method, url, body, { 'x-forwarded-for': ip, ...headers });
    return c;
  };
  const loginBody = (account: string, password: string) => ({ account, password, channel: 'user', method: 'account' });
  const users = async () => (await server.app.ctx.db.selectFrom('users').select(['account', 'role']).execute()).map((u) => `${u.role}:${u.account}`).sort();

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startServer(dialect);
    await setSysSection(server.app.ctx.db, 'email', { open: true, host: '127.0.0.1', port: smtp.port });
    anon = new Client(server.url);
    const { createAccount } = await import('../src/auth/accounts');
    await server.app.ctx.db.updateTable('users').set({ email: 'root@example.com' }).where('account', '=', 'admin').execute();
    for (const name of ['race', 'alike', 'limited']) await createAccount(server.app.ctx, { role: 'user', account: `${name}@example.com`, email: `${name}@example.com`, password: 'Right#pass1' });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('evaluates at most five of 60 parallel guesses, then refuses the right password too', async () => {
    await limits({});
    const guesses = await Promise.all(Array.from({ length: 60 }, (_, i) => anon.post('/api/v1/auth/login', loginBody('race@example.com', `wrong-${i}`))));
    expect(guesses.every((r) => r.body.code === 50 && r.body.message === REFUSED)).toBe(true);
    const right = await anon.post('/api/v1/auth/login', loginBody('race@example.com', 'Right#pass1'));
    expect(right.body).toMatchObject({ code: 50, message: REFUSED });
    const row = await server.app.ctx.db.selectFrom('users').select(['failed_logins', 'locked_until']).where('account', '=', 'race@example.com').executeTakeFirstOrThrow();
    expect(Number(row.locked_until)).toBeGreaterThan(Date.now());
  });

  it('answers a locked, an unknown and a wrong-password account alike', async () => {
    await limits({});
    const wrong = await anon.post('/api/v1/auth/login', loginBody('alike@example.com', 'nope-nope'));
    const unknown = await anon.post('/api/v1/auth/login', loginBody('nobody@example.com', 'nope-nope'));
    const locked = await anon.post('/api/v1/auth/login', loginBody('race@example.com', 'Right#pass1'));
    expect(wrong.body).toEqual(unknown.body);
    expect(locked.body).toEqual(unknown.body);
    expect(unknown.body).toMatchObject({ code: 50, message: REFUSED });
    // A success clears the count: four failures and a success leave the account usable.
    for (let i = 0; i < 3; i++) await anon.post('/api/v1/auth/login', loginBody('alike@example.com', 'nope-nope'));
    expect((await anon.post('/api/v1/auth/login', loginBody('alike@example.com', 'Right#pass1'))).body.code).toBe(0);
    expect((await anon.post('/api/v1/auth/login', loginBody('alike@example.com', 'nope-nope'))).body.message).toBe(REFUSED);
    expect((await anon.post('/api/v1/auth/login', loginBody('alike@example.com', 'Right#pass1'))).body.code).toBe(0);
  });

  it('limits sign-ins per client address with the default limits, one address at a time', async () => {
    await setSysSection(server.app.ctx.db, 'sign_in_limits', SYS_CONFIG_DEFAULTS.sign_in_limits);
    const perMinute = SYS_CONFIG_DEFAULTS.sign_in_limits.ip_per_minute;
    const attacker = from('203.0.113.7');
    const answers = [];
    // Different accounts, so only the per-address limit can refuse.
    for (let i = 0; i <= perMinute; i++) answers.push((await attacker.post('/api/v1/auth/login', loginBody(`spray-${i}@example.com`, 'x-x-x-x'))).body);
    expect(answers.slice(0, perMinute).every((b) => b.message === REFUSED)).toBe(true);
    expect(answers[perMinute]).toMatchObject({ code: 50 });
    expect(answers[perMinute]!.message).toMatch(/^操作过于频繁，请\d+秒后再试$/);
    // Another address is not affected, and a real user there signs in.
    expect((await from('198.51.100.9').post('/api/v1/auth/login', loginBody('limited@example.com', 'Right#pass1'))).body.code).toBe(0);
  });

  it('limits sign-ins per account across addresses', async () => {
    await limits({ account_per_minute: 3 });
    // Known or not, the account named is counted (case-insensitively).
    for (let i = 0; i < 3; i++) expect((await from(`192.0.2.${i + 1}`).post('/api/v1/auth/login', loginBody('Target@example.com', 'bad-bad'))).body.message).toBe(REFUSED);
    const fourth = await from('192.0.2.99').post('/api/v1/auth/login', loginBody('target@example.com', 'bad-bad'));
    expect(fourth.body.message).toMatch(/^操作过于频繁/);
    await limits({});
  });

  it('limits code sending per client address', async () => {
    await limits({ code_ip_per_minute: 2 });
    const sender = from('203.0.113.50');
    const send = (i: number) => sender.post('/api/v1/common/email-code', { email: `mailbox-${i}@example.com`, action: 'register', channel: 'user' });
    expect((await send(1)).body.code).toBe(0);
    expect((await send(2)).body.code).toBe(0);
    expect((await send(3)).body.message).toMatch(/^操作过于频繁/);
    expect((await from('203.0.113.51').post('/api/v1/common/email-code', { email: 'mailbox-4@example.com', action: 'register', channel: 'user' })).body.code).toBe(0);
    await limits({});
  });

  it('answers code requests alike for known and unknown addresses, even with the mail server down', async () => {
    const ask = (email: string, action: string, channel = 'user') => anon.post('/api/v1/common/email-code', { email, action, channel });
    for (const [known, unknown, action, channel] of [
      ['alike@example.com', 'ghost@example.com', 'forget_password', 'user'],
      ['alike@example.com', 'ghost2@example.com', 'register', 'user'],
      ['alike@example.com', 'ghost3@example.com', 'login', 'user'],
      ['root@example.com', 'ghost4@example.com', 'login', 'admin'],
      ['root@example.com', 'ghost6@example.com', 'forget_password', 'admin'],
    ] as const) {
      expect((await ask(known, action, channel)).body).toEqual((await ask(unknown, action, channel)).body);
    }
    // A mail server that refuses connections changes nothing in the answers.
    await setSysSection(server.app.ctx.db, 'email', { open: true, host: '127.0.0.1', port: 9 });
    const known = await ask('alike@example.com', 'forget_password');
    const unknown = await ask('ghost5@example.com', 'forget_password');
    expect(known.body).toEqual({ code: 0, message: 'success', data: null });
    expect(unknown.body).toEqual(known.body);
    await setSysSection(server.app.ctx.db, 'email', { open: true, host: '127.0.0.1', port: smtp.port });
  });

  it('registers by code sign-in only where that channel registers', async () => {
    const before = await users();
    // The reseller channel's registration is off by default: no reseller is created, no code mailed.
    smtp.mails.length = 0;
    expect((await anon.post('/api/v1/common/email-code', { email: 'would-be@example.com', action: 'login', channel: 'reseller' })).body.code).toBe(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.mails.filter((m) => m.to === 'would-be@example.com')).toEqual([]);
    // Even with a code that was valid when mailed (registration switched off since), nothing is created.
    await setSysSection(server.app.ctx.db, 'user_login_register', { email_register: true });
    await anon.post('/api/v1/common/email-code', { email: 'late@example.com', action: 'login', channel: 'user' });
    const code = await smtp.codeFor('late@example.com');
    await setSysSection(server.app.ctx.db, 'user_login_register', { email_register: false });
    const late = await anon.post('/api/v1/auth/login', { account: 'late@example.com', code, channel: 'user', method: 'code' });
    expect(late.body).toMatchObject({ code: 50 });
    // With the user channel's registration off, an unknown email gets no code either.
    smtp.mails.length = 0;
    await anon.post('/api/v1/common/email-code', { email: 'closed@example.com', action: 'login', channel: 'user' });
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.mails.filter((m) => m.to === 'closed@example.com')).toEqual([]);
    expect(await users()).toEqual(before);
    // Known accounts still sign in by code with registration off.
    await anon.post('/api/v1/common/email-code', { email: 'alike@example.com', action: 'login', channel: 'user' });
    const ok = await anon.post('/api/v1/auth/login', { account: 'alike@example.com', code: await smtp.codeFor('alike@example.com'), channel: 'user', method: 'code' });
    expect(ok.body.code).toBe(0);
    await setSysSection(server.app.ctx.db, 'user_login_register', { email_register: true });
  });
});
