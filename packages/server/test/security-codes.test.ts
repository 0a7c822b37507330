// Verification codes and the mail server that carries them (issue 11, finding 1): the attack that took
// the admin account — a reseller's site for evil.example with its own SMTP, then a code for the admin's
// email "for evil.example" — played end to end against real SMTP servers, by every route. Codes for an
// account go only through the platform's server or the approved site of the account's own reseller.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSysSection } from '../src/settings/sys-config';
import { admin as adminClient, Client, dialects, signedIn, startServer, startSmtp, type TestServer } from './helpers';

type Smtp = Awaited<ReturnType<typeof startSmtp>>;
const ADMIN_EMAIL = 'root@corp.example';
const settle = () => new Promise((r) => setTimeout(r, 300));

describe.each(dialects)('codes and mail routing on %s', (dialect) => {
  let server: TestServer;
  let platform: Smtp;
  let evil: Smtp;
  let honest: Smtp;
  let anon: Client;
  let admin: Client;
  let attacker: Client & { userId: number };
  let reseller: Client & { userId: number };
  let evilSite = '';

  /** A site for `domain` owned by `owner`, mailing through `smtp`; approved by the admin when asked. */
  async function site(owner: Client, domain: string, smtp: Smtp, approve: boolean): Promise<string> {
    const r = await owner.post('/api/v1/sys/site/create', { domain, title: domain, host: '127.0.0.1', port: smtp.port, user_name: '', password: '', from_name: domain });
    expect(r.body.code).toBe(0);
    if (approve) expect((await admin.post('/api/v1/sys/site/change/approval', { id: r.body.data.id, approved: 1 })).body.code).toBe(0);
    return r.body.data.id as string;
  }

  /** Asks a code with the domain named in the body, or only through the Host header. */
  const ask = (email: string, action: string, channel: string, via: 'body' | 'host') =>
    via === 'body'
      ? anon.post('/api/v1/common/email-code', { email, action, channel, domain: 'evil.example' })
      : anon.raw('POST', '/api/v1/common/email-code', JSON.stringify({ email, action, channel }), { host: 'evil.example' }).then(async (res) => ({ status: res.status, body: await res.json() }));

  beforeAll(async () => {
    [platform, evil, honest] = await Promise.all([startSmtp(), startSmtp(), startSmtp()]);
    // Resellers' mail servers are refused on private addresses; these test servers live on loopback.
    server = await startServer(dialect, { MAIL_PRIVATE_ALLOW: '127.0.0.1' });
    await setSysSection(server.app.ctx.db, 'email', { open: true, host: '127.0.0.1', port: platform.port });
    await setSysSection(server.app.ctx.db, 'reseller_login_register', { email_register: true });
    await server.app.ctx.db.updateTable('users').set({ email: ADMIN_EMAIL }).where('account', '=', 'admin').execute();
    anon = new Client(server.url);
    admin = await adminClient(server);
    attacker = await signedIn(server, 'reseller', 'mallory@evil.example');
    reseller = await signedIn(server, 'reseller', 'rita@honest.example');
    await site(reseller, 'honest.example', honest, true);
    await signedIn(server, 'user', 'bob@honest.example', { rid: reseller.userId });
    evilSite = await site(attacker, 'evil.example', evil, false);
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([platform?.close(), evil?.close(), honest?.close()]);
  });

  const attempts = [
    // [email, action, channel]
    [ADMIN_EMAIL, 'login', 'admin'],
    [ADMIN_EMAIL, 'forget_password', 'admin'],
    [ADMIN_EMAIL, 'register', 'user'],
    [ADMIN_EMAIL, 'login', 'user'],
    [ADMIN_EMAIL, 'register', 'reseller'],
    ['rita@honest.example', 'login', 'reseller'],
    ['rita@honest.example', 'forget_password', 'reseller'],
    ['bob@honest.example', 'login', 'user'],
    ['bob@honest.example', 'forget_password', 'user'],
    ['bob@honest.example', 'register', 'user'],
  ] as const;

  async function attack() {
    for (const via of ['body', 'host'] as const) {
      for (const [email, action, channel] of attempts) {
        // Past sends would hit the 5-per-address limit: each try starts with none.
        await server.app.ctx.db.deleteFrom('verify_codes').execute();
        // Every answer is the same plain success: nothing to learn from it either.
        expect((await ask(email, action, channel, via)).body).toMatchObject({ code: 0 });
      }
    }
    await settle();
    expect(evil.mails).toEqual([]);
  }

  it("mails no code for someone else's account through a pending site's server, by any route", async () => {
    await attack();
  });

  it("mails no code for someone else's account through the attacker's approved site either", async () => {
    expect((await admin.post('/api/v1/sys/site/change/approval', { id: evilSite, approved: 1 })).body.code).toBe(0);
    platform.mails.length = 0;
    honest.mails.length = 0;
    await attack();
    // The codes that were sent went through the owners' servers: the admin's and the reseller's
    // through the platform's, Bob's through his reseller's own site.
    expect(new Set(platform.mails.map((m) => m.to))).toEqual(new Set([ADMIN_EMAIL, 'rita@honest.example']));
    expect(new Set(honest.mails.map((m) => m.to))).toEqual(new Set(['bob@honest.example']));
  });

  it("cannot take the admin account with any code the attacker's server saw", async () => {
    // The whole attack: reset the admin's password with a code read from the attacker's mailbox.
    await ask(ADMIN_EMAIL, 'forget_password', 'admin', 'body');
    await settle();
    const seen = evil.mails.map((m) => m.text.match(/\b(\d{6})\b/)?.[1]).filter(Boolean);
    expect(seen).toEqual([]);
    const guess = await anon.post('/api/v1/auth/forget', { account: ADMIN_EMAIL, password: 'Owned#12345', code: '000000', channel: 'admin', domain: 'evil.example' });
    expect(guess.body.code).toBe(50);
    await adminClient(server);
  });

  it("mails its own newcomers and users through an approved reseller site's own server", async () => {
    evil.mails.length = 0;
    // A newcomer registering on the attacker's (approved) site is that site's to serve.
    expect((await anon.post('/api/v1/common/email-code', { email: 'newbie@mail.example', action: 'register', channel: 'user', domain: 'evil.example' })).body.code).toBe(0);
    const code = await evil.codeFor('newbie@mail.example');
    const reg = await anon.post('/api/v1/auth/register', { account: 'newbie@mail.example', password: 'Newbie#123', code, channel: 'user', domain: 'evil.example' });
    expect(reg.body.code).toBe(0);
    const newbie = await server.app.ctx.db.selectFrom('users').select('rid').where('email', '=', 'newbie@mail.example').executeTakeFirstOrThrow();
    expect(newbie.rid).toBe(attacker.userId);
    // Its later codes go through its own reseller's server, whatever domain is named.
    evil.mails.length = 0;
    await anon.post('/api/v1/common/email-code', { email: 'newbie@mail.example', action: 'forget_password', channel: 'user', domain: 'honest.example' });
    expect(await evil.codeFor('newbie@mail.example')).toMatch(/^\d{6}$/);
    // Revoking the approval sends the site's users' mail back to the platform.
    expect((await admin.post('/api/v1/sys/site/change/approval', { id: evilSite, approved: 0 })).body.code).toBe(0);
    platform.mails.length = 0;
    await anon.post('/api/v1/common/email-code', { email: 'newbie@mail.example', action: 'login', channel: 'user' });
    expect(await platform.codeFor('newbie@mail.example')).toMatch(/^\d{6}$/);
  });

  it('keeps the platform mail for code sign-in and registration on the main login', async () => {
    platform.mails.length = 0;
    await anon.post('/api/v1/common/email-code', { email: 'walkin@mail.example', action: 'login', channel: 'user' });
    const r = await anon.post('/api/v1/auth/login', { account: 'walkin@mail.example', code: await platform.codeFor('walkin@mail.example'), channel: 'user', method: 'code' });
    expect(r.body.code).toBe(0);
  });
});
