// Two-factor sign-in (TOTP) and step-up (issue 11), over HTTP on the real app: enrolment, the sign-in's
// second step, lockout, replay, recovery codes, the require-for-admins policy and the step-up of every
// protected route. Codes are computed like an authenticator app would from the secret the server shows.
import { ErrorCode } from '@fastgate/core/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../src/auth/totp';
import { setSysSection } from '../src/settings/sys-config';
import { AGENT, CORP, MODEL, rawDb, seedCatalogue } from './app-fixtures';
import { admin, Client, dialects, signedIn, startServer, startSmtp, type TestServer } from './helpers';

const PASSWORD = 'Passw0rd!';
const STEP_MS = 30_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * An authenticator app for one secret that never offers a time step twice (the server takes each once):
 * the current step, else the next one (inside the server's ±1 window); waits when both are used.
 */
function authenticator(secret: string) {
  let last = 0;
  return {
    async next(): Promise<string> {
      for (;;) {
        const now = Math.floor(Date.now() / STEP_MS);
        const step = Math.max(last + 1, now);
        if (step <= now + 1) {
          last = step;
          return totpCode(secret, step * STEP_MS);
        }
        await sleep(1000);
      }
    },
    /** The code of the step used last: a replay. */
    replay: () => totpCode(secret, last * STEP_MS),
  };
}

type Enrolled = Client & { userId: number; auth: ReturnType<typeof authenticator>; recovery: string[]; account: string };

describe.each(dialects)('two-factor sign-in and step-up on %s', (dialect) => {
  let server: TestServer;
  let root: Client;

  /** A new account of `role` with TOTP enabled (one code used to confirm), signed in before enrolling. */
  async function enrolled(role: 'admin' | 'reseller' | 'user', account: string, opts: { rid?: number } = {}): Promise<Enrolled> {
    const c = await signedIn(server, role, account, opts);
    const setup = await c.post('/api/v1/user/two-factor/setup', { password: PASSWORD });
    expect(setup.body.code, setup.body.message).toBe(0);
    const auth = authenticator(setup.body.data.secret);
    const confirmed = await c.post('/api/v1/user/two-factor/confirm', { code: await auth.next() });
    expect(confirmed.body.code, confirmed.body.message).toBe(0);
    return Object.assign(c, { auth, recovery: confirmed.body.data.recovery_codes as string[], account });
  }

  /** Password sign-in; answers the ticket of the second step. */
  async function firstStep(role: 'admin' | 'reseller' | 'user', account: string, password = PASSWORD): Promise<string> {
    const r = await new Client(server.url).post('/api/v1/auth/login', { account, password, channel: role, method: 'account' });
    expect(r.body.code, r.body.message).toBe(0);
    expect(r.body.data).toMatchObject({ two_factor: true, expires_in: 300 });
    expect(r.body.data.token).toBeUndefined();
    return r.body.data.ticket as string;
  }

  const secondStep = (ticket: string, code: string) => new Client(server.url).post('/api/v1/auth/login/totp', { ticket, code });

  beforeAll(async () => {
    server = await startServer(dialect);
    await seedCatalogue(server);
    root = await admin(server);
  });
  afterAll(() => server?.close());

  it('enrols with the password and a code, shows ten recovery codes once, and disables with password + code', async () => {
    const c = await signedIn(server, 'reseller', 'enrol-r');
    expect((await c.get('/api/v1/user/two-factor/status')).body.data).toEqual({ enabled: false, pending: false, required: false, recovery_codes_left: 0 });
    expect((await c.post('/api/v1/user/two-factor/setup', { password: 'Wrong#123' })).body.message).toBe('密码错误');
    expect((await c.post('/api/v1/user/two-factor/confirm', { code: '123456' })).body.message).toBe('请先生成密钥并用验证器扫描');

    const setup = (await c.post('/api/v1/user/two-factor/setup', { password: PASSWORD })).body.data;
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.totp_uri).toBe(`otpauth://totp/${encodeURIComponent('智元 Fast API')}:enrol-r?issuer=${encodeURIComponent('智元 Fast API')}&secret=${setup.secret}&algorithm=SHA1&digits=6&period=30`);
    const row = await rawDb(server).selectFrom('user_two_factor').selectAll().where('user_id', '=', c.userId).executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(setup.secret);
    expect(server.app.ctx.secrets.decrypt(row.secret)).toBe(setup.secret);
    expect((await c.get('/api/v1/user/two-factor/status')).body.data).toMatchObject({ enabled: false, pending: true });
    // Pending is not enabled: sign-in still gives a session at once.
    expect((await new Client(server.url).post('/api/v1/auth/login', { account: 'enrol-r', password: PASSWORD, channel: 'reseller' })).body.data.token).toBeTruthy();

    const auth = authenticator(setup.secret);
    const wrong = await c.post('/api/v1/user/two-factor/confirm', { code: totpCode(setup.secret, Date.now() - 10 * STEP_MS) });
    expect(wrong.body).toMatchObject({ code: 50, message: '动态验证码错误或已使用（连续错误5次将锁定30分钟）' });
    expect((await c.post('/api/v1/user/two-factor/confirm', { code: 'abc' })).body.code).toBe(51);
    const confirmed = await c.post('/api/v1/user/two-factor/confirm', { code: await auth.next() });
    expect(confirmed.body.code).toBe(0);
    const codes = confirmed.body.data.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    // Only hashes are stored.
    const stored = JSON.stringify(await rawDb(server).selectFrom('two_factor_recovery_codes').selectAll().where('user_id', '=', c.userId).execute());
    for (const code of codes) expect(stored).not.toContain(code);
    expect((await c.get('/api/v1/user/two-factor/status')).body.data).toEqual({ enabled: true, pending: false, required: false, recovery_codes_left: 10 });
    expect((await c.post('/api/v1/user/two-factor/setup', { password: PASSWORD })).body.message).toBe('两步验证已开启');

    // Disabling takes the password and a current code; a wrong one of either changes nothing.
    expect((await c.post('/api/v1/user/two-factor/disable', { password: 'Wrong#123', code: codes[0] })).body.message).toBe('密码错误');
    expect((await c.post('/api/v1/user/two-factor/disable', { password: PASSWORD, code: '000000' })).body.code).toBe(50);
    expect((await c.get('/api/v1/user/two-factor/status')).body.data.enabled).toBe(true);
    // New recovery codes replace the old ones.
    const fresh = (await c.post('/api/v1/user/two-factor/recovery-codes', { password: PASSWORD, code: codes[0] })).body.data.recovery_codes as string[];
    expect(fresh).toHaveLength(10);
    expect((await c.post('/api/v1/user/two-factor/disable', { password: PASSWORD, code: codes[1] })).body.code).toBe(50);
    expect((await c.post('/api/v1/user/two-factor/disable', { password: PASSWORD, code: fresh[0] })).body.code).toBe(0);
    expect((await c.get('/api/v1/user/two-factor/status')).body.data).toMatchObject({ enabled: false, pending: false, recovery_codes_left: 0 });
    expect(await rawDb(server).selectFrom('two_factor_recovery_codes').selectAll().where('user_id', '=', c.userId).execute()).toEqual([]);
    expect((await new Client(server.url).post('/api/v1/auth/login', { account: 'enrol-r', password: PASSWORD, channel: 'reseller' })).body.data.token).toBeTruthy();
  });

  it('signs in only after the second step; a code and a recovery code each work once', async () => {
    const r = await enrolled('reseller', 'signin-r');
    const ticket = await firstStep('reseller', 'signin-r');
    // The ticket is no session.
    expect((await new Client(server.url).raw('GET', '/api/v1/user/info', undefined, { authorization: `Bearer ${ticket}` })).status).toBe(401);
    const code = await r.auth.next();
    const done = await secondStep(ticket, code);
    expect(done.body.code, done.body.message).toBe(0);
    expect(done.body.data).toMatchObject({ type: 'Bearer' });
    const session = new Client(server.url);
    session.token = done.body.data.token;
    expect((await session.get('/api/v1/user/info')).body.data.account).toBe('signin-r');
    // The ticket signs in once.
    expect((await secondStep(ticket, '123456')).body.message).toBe('两步验证已过期，请重新登录');

    // The same code (time step) again on a new ticket: refused.
    const again = await firstStep('reseller', 'signin-r');
    expect((await secondStep(again, code)).body.message).toBe('动态验证码错误或已使用（连续错误5次将锁定30分钟）');
    // A recovery code works in its place, once.
    expect((await secondStep(again, r.recovery[0]!.toUpperCase())).body.code).toBe(0);
    const third = await firstStep('reseller', 'signin-r');
    expect((await secondStep(third, r.recovery[0]!)).body.code).toBe(50);
    expect((await r.get('/api/v1/user/two-factor/status')).body.data.recovery_codes_left).toBe(9);
  });

  it('asks the second step after an email-code sign-in too', async () => {
    const smtp = await startSmtp();
    try {
      await setSysSection(server.app.ctx.db, 'email', { open: true, host: '127.0.0.1', port: smtp.port });
      const u = await enrolled('user', 'code-u@example.com');
      const c = new Client(server.url);
      expect((await c.post('/api/v1/common/email-code', { email: 'code-u@example.com', action: 'login', channel: 'user' })).body.code).toBe(0);
      const first = await c.post('/api/v1/auth/login', { account: 'code-u@example.com', code: await smtp.codeFor('code-u@example.com'), channel: 'user', method: 'code' });
      expect(first.body.data).toMatchObject({ two_factor: true });
      expect(first.body.data.token).toBeUndefined();
      expect((await secondStep(first.body.data.ticket, await u.auth.next())).body.data.token).toBeTruthy();
    } finally {
      await smtp.close();
    }
  });

  it('counts wrong codes toward the lockout and kills the ticket after five', async () => {
    const r = await enrolled('reseller', 'lock-r');
    const ticket = await firstStep('reseller', 'lock-r');
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) answers.push((await secondStep(ticket, String(100000 + i))).body.message);
    expect(new Set(answers)).toEqual(new Set(['动态验证码错误或已使用（连续错误5次将锁定30分钟）']));
    // Five tries: the ticket is gone, even with the right code.
    expect((await secondStep(ticket, await r.auth.next())).body.message).toBe('两步验证已过期，请重新登录');
    // The account is locked: the right password no longer signs in.
    const locked = await new Client(server.url).post('/api/v1/auth/login', { account: 'lock-r', password: PASSWORD, channel: 'reseller' });
    expect(locked.body.code).toBe(50);
    expect(locked.body.data).toBeNull();
    const row = await rawDb(server).selectFrom('users').select('locked_until').where('user_id', '=', r.userId).executeTakeFirstOrThrow();
    expect(Number(row.locked_until)).toBeGreaterThan(Date.now());
  });

  it('parallel guesses on one ticket are all counted (no more than five are evaluated)', async () => {
    const r = await enrolled('reseller', 'race-r');
    const ticket = await firstStep('reseller', 'race-r');
    const right = await r.auth.next();
    const guesses = await Promise.all(Array.from({ length: 20 }, (_, i) => secondStep(ticket, String(200000 + i))));
    expect(guesses.every((g) => g.body.code === 50 && !g.body.data)).toBe(true);
    expect((await secondStep(ticket, right)).body.code).toBe(50);
  });

  it('lets a right password and code in after earlier typos, and abandoned second steps lock nothing', async () => {
    // Two accounts, so that no authenticator needs a third code (a third waits for the next 30-second step).
    const typos = await enrolled('user', 'typos@example.com');
    const abandoned = await enrolled('user', 'abandoned@example.com');
    // Four typos, then the right password and code: signed in (the password's own attempt is given back).
    for (let i = 0; i < 4; i++) expect((await new Client(server.url).post('/api/v1/auth/login', { account: typos.account, password: 'typo-typo', channel: 'user' })).body.code).toBe(50);
    expect((await secondStep(await firstStep('user', typos.account), await typos.auth.next())).body.code).toBe(0);
    // Ten right passwords whose second step never comes: the account is neither locked nor stuck.
    for (let i = 0; i < 10; i++) await firstStep('user', abandoned.account);
    expect((await secondStep(await firstStep('user', abandoned.account), await abandoned.auth.next())).body.code).toBe(0);
    for (const c of [typos, abandoned]) {
      const row = await server.app.ctx.db.selectFrom('users').select(['failed_logins', 'locked_until']).where('user_id', '=', c.userId).executeTakeFirstOrThrow();
      expect(row).toEqual({ failed_logins: 0, locked_until: null });
    }
  });

  it('binds a ticket to its account: another account\'s valid code does not open it', async () => {
    const reseller = await enrolled('reseller', 'tenant-r');
    const user = await enrolled('user', 'tenant-u', { rid: reseller.userId });
    const ticket = await firstStep('reseller', 'tenant-r');
    // The user's own fresh code and recovery code are worth nothing on the reseller's ticket.
    expect((await secondStep(ticket, await user.auth.next())).body.code).toBe(50);
    expect((await secondStep(ticket, user.recovery[0]!)).body.code).toBe(50);
    // Neither was consumed: the user still signs in with its recovery code.
    const userTicket = await firstStep('user', 'tenant-u');
    expect((await secondStep(userTicket, user.recovery[0]!)).body.code).toBe(0);
    // And the reseller's ticket still takes the reseller's code.
    const done = await secondStep(ticket, await reseller.auth.next());
    expect(done.body.code).toBe(0);
    const session = new Client(server.url);
    session.token = done.body.data.token;
    expect((await session.get('/api/v1/user/info')).body.data.account).toBe('tenant-r');
    // Garbage and forged tickets: a clear envelope error.
    expect((await secondStep('x'.repeat(43), '123456')).body.message).toBe('两步验证已过期，请重新登录');
    expect((await new Client(server.url).post('/api/v1/auth/login/totp', { ticket: 'short', code: '123456' })).body.code).toBe(51);
  });

  it('requires enrolment of admins and resellers when the system config says so', async () => {
    const r = await signedIn(server, 'reseller', 'policy-r');
    const u = await signedIn(server, 'user', 'policy-u', { rid: r.userId });
    expect((await root.post('/api/v1/sys/config/update', { action: 'two_factor', two_factor: { required: true } })).body.code).toBe(0);
    try {
      const info = await r.get('/api/v1/user/info');
      expect(info.body.data.two_factor_setup).toBe(true);
      expect((await r.post('/api/user/menu')).body.code).toBe(0);
      const refused = await r.post('/api/v1/admin/user/page', {});
      expect(refused.body).toMatchObject({ code: ErrorCode.TwoFactorSetup, message: expect.stringContaining('安全设置') });
      // Users choose for themselves.
      expect((await u.get('/api/v1/user/info')).body.data.two_factor_setup).toBe(false);
      expect((await u.post('/api/v1/app/page', {})).body.code).toBe(0);
      // A new sign-in works, and lands on the same fence.
      const again = new Client(server.url);
      await again.login('reseller', 'policy-r', PASSWORD);
      expect((await again.post('/api/v1/admin/user/page', {})).body.code).toBe(ErrorCode.TwoFactorSetup);
      // Enrolment is reachable, and once done everything answers again.
      expect((await r.get('/api/v1/user/two-factor/status')).body.data).toMatchObject({ required: true, enabled: false });
      const setup = (await r.post('/api/v1/user/two-factor/setup', { password: PASSWORD })).body.data;
      expect((await r.post('/api/v1/user/two-factor/confirm', { code: await authenticator(setup.secret).next() })).body.code).toBe(0);
      expect((await r.post('/api/v1/admin/user/page', {})).body.code).toBe(0);
      expect((await r.get('/api/v1/user/info')).body.data.two_factor_setup).toBe(false);
      // The admin that switched it on is fenced too until it enrols.
      expect((await root.get('/api/v1/sys/config/detail')).body.code).toBe(ErrorCode.TwoFactorSetup);
    } finally {
      await setSysSection(server.app.ctx.db, 'two_factor', { required: false });
    }
  });

  it("resets a managed account's two-factor for its admin or reseller only, after step-up", async () => {
    const owner = await enrolled('reseller', 'reset-owner');
    owner.token = (await secondStep(await firstStep('reseller', 'reset-owner'), owner.recovery[0]!)).body.data.token;
    const lost = await enrolled('user', 'reset-lost@example.com', { rid: owner.userId });
    const stranger = await enrolled('user', 'reset-stranger@example.com');
    const idOf = async (userId: number) => (await rawDb(server).selectFrom('users').select('id').where('user_id', '=', userId).executeTakeFirstOrThrow()).id;
    const reset = (c: Client, id: string) => c.post('/api/v1/admin/user/two-factor/reset', { id });

    expect((await reset(owner, await idOf(lost.userId))).body.code).toBe(ErrorCode.StepUp);
    expect((await owner.post('/api/v1/auth/step-up', { code: await owner.auth.next() })).body.code).toBe(0);
    // Another reseller's (here: the platform's) user is out of reach.
    expect((await reset(owner, await idOf(stranger.userId))).body.code).toBe(50);
    expect((await reset(lost, await idOf(lost.userId))).status).toBe(401);
    expect((await reset(owner, await idOf(lost.userId))).body.code).toBe(0);
    // Off, its sessions ended; signs in with the password alone and may enrol again.
    expect((await lost.get('/api/v1/user/info')).status).toBe(401);
    const again = await new Client(server.url).post('/api/v1/auth/login', { account: lost.account, password: PASSWORD, channel: 'user' });
    expect(again.body.data.token).toBeTruthy();
    expect((await reset(owner, await idOf(lost.userId))).body.message).toBe('两步验证未开启');
    // The one reset that happened is in the audit log (refusals write nothing).
    const audits = await rawDb(server).selectFrom('audit_logs').select(['user_id', 'record_ids']).where('action', '=', '/api/v1/admin/user/two-factor/reset').execute();
    expect(audits).toEqual([{ user_id: owner.userId, record_ids: JSON.stringify([await idOf(lost.userId)]) }]);
  }, 70_000);

  it('asks a fresh code before every protected action, and takes it once', async () => {
    const a = await enrolled('admin', 'stepup-a');
    // Sign in with a recovery code, so the TOTP codes are left for step-up.
    const done = await secondStep(await firstStep('admin', 'stepup-a'), a.recovery[0]!);
    a.token = done.body.data.token;

    const key = await root.post('/api/v1/key/create', { type: 2, corp: CORP, key: 'sk-proj-stepupstepupstepup0001', models: [MODEL], model_agents: [AGENT] });
    const keyId = key.body.data.id as string;
    const user = await signedIn(server, 'user', 'stepup-u');
    const reseller = await signedIn(server, 'reseller', 'stepup-r2');
    await root.post('/api/v1/admin/reseller/recharge', { user_id: reseller.userId, quota: 1_000_000 });
    const userRow = await rawDb(server).selectFrom('users').select('id').where('user_id', '=', user.userId).executeTakeFirstOrThrow();

    const protectedCalls: [string, () => Promise<{ code: number; data: unknown }>][] = [
      ['provider key reveal', async () => (await a.post('/api/v1/key/copy/field', { id: keyId, type: 2, field: 'key' })).body],
      ['provider key of an agent', async () => (await a.post('/api/v1/model/agent/key/reveal', { id: AGENT, key_id: keyId })).body],
      ['provider key in a call log', async () => (await a.post('/api/v1/log/chat/copy/field', { id: '1', field: 'key' })).body],
      ['app key export', async () => {
        const res = await a.raw('POST', '/api/v1/app/key/export', JSON.stringify({}));
        return res.headers.get('content-type')?.includes('json') ? ((await res.json()) as { code: number; data: unknown }) : { code: 0, data: 'file' };
      }],
      ['recharge', async () => (await a.post('/api/v1/admin/user/recharge', { user_id: user.userId, quota: 1000 })).body],
      ['deduct', async () => (await a.post('/api/v1/admin/user/recharge', { user_id: user.userId, quota: 500, quota_type: 2 })).body],
      ['gift', async () => (await a.post('/api/v1/admin/user/recharge', { user_id: user.userId, quota: 500, quota_type: 3 })).body],
      ['batch recharge', async () => (await a.post('/api/v1/admin/user/batch/operate', { action: 'recharge', ids: [userRow.id], value: 1000 })).body],
      ['reseller allocation', async () => (await a.post('/api/v1/admin/reseller/recharge', { user_id: reseller.userId, quota: 1000 })).body],
      ['password reset', async () => (await a.post('/api/v1/admin/user/update', { id: userRow.id, account: 'stepup-u', name: 'stepup-u', email: '', password: 'NewPass#1' })).body],
      ['account with an opening balance', async () => (await a.post('/api/v1/admin/user/create', { account: `opening-${Date.now()}`, name: 'Opening', email: '', password: PASSWORD, quota: 1000 })).body],
    ];
    for (const [name, call] of protectedCalls) expect({ name, code: (await call()).code }).toEqual({ name, code: ErrorCode.StepUp });
    // Nothing moved.
    expect((await rawDb(server).selectFrom('users').select('quota').where('user_id', '=', user.userId).executeTakeFirstOrThrow()).quota).toBe(0);
    // Plain writes need no step-up.
    expect((await a.post('/api/v1/admin/user/page', {})).body.code).toBe(0);

    expect((await a.post('/api/v1/auth/step-up', { code: '000000' })).body.code).toBe(50);
    const code = await a.auth.next();
    expect((await a.post('/api/v1/auth/step-up', { code })).body).toMatchObject({ code: 0, data: { expires_in: 300 } });
    const answers = [];
    for (const [name, call] of protectedCalls) answers.push({ name, code: (await call()).code });
    expect(answers).toEqual(protectedCalls.map(([name]) => ({ name, code: name === 'provider key in a call log' ? 50 : 0 })));
    expect((await a.post('/api/v1/key/copy/field', { id: keyId, type: 2, field: 'key' })).body.data.value).toBe('sk-proj-stepupstepupstepup0001');
    expect((await a.post('/api/v1/model/agent/key/reveal', { id: AGENT, key_id: keyId })).body.data.value).toBe('sk-proj-stepupstepupstepup0001');

    // The step-up belongs to that session only, and its code cannot be used again.
    const other = new Client(server.url);
    other.token = (await secondStep(await firstStep('admin', 'stepup-a'), a.recovery[1]!)).body.data.token;
    expect((await other.post('/api/v1/key/copy/field', { id: keyId, type: 2, field: 'key' })).body.code).toBe(ErrorCode.StepUp);
    expect((await other.post('/api/v1/auth/step-up', { code })).body.code).toBe(50);
    // The window closes: an expired step-up asks again.
    await rawDb(server).updateTable('step_ups').set({ expires_at: Date.now() - 1 }).execute();
    expect((await a.post('/api/v1/key/copy/field', { id: keyId, type: 2, field: 'key' })).body.code).toBe(ErrorCode.StepUp);

    // A reseller with two-factor steps up for its own users' balances too.
    const r = await enrolled('reseller', 'stepup-r');
    const ru = await signedIn(server, 'user', 'stepup-ru', { rid: r.userId });
    await root.post('/api/v1/admin/reseller/recharge', { user_id: r.userId, quota: 10_000 });
    expect((await r.post('/api/v1/admin/user/recharge', { user_id: ru.userId, quota: 100 })).body.code).toBe(ErrorCode.StepUp);
    expect((await r.post('/api/v1/auth/step-up', { code: r.recovery[0] })).body.code).toBe(0);
    expect((await r.post('/api/v1/admin/user/recharge', { user_id: ru.userId, quota: 100 })).body.code).toBe(0);

    // Without two-factor there is nothing to step up with: the unenrolled admin acts as before.
    expect((await root.post('/api/v1/key/copy/field', { id: keyId, type: 2, field: 'key' })).body.code).toBe(0);
    expect((await root.post('/api/v1/auth/step-up', { code: '123456' })).body.message).toBe('两步验证未开启');
  });
});
