// Issue 11, finding 2 (domain claiming): a reseller's site decides nothing — public identity, the owner
// of newcomers, whose mail server sends their codes — until an admin approves its domain; changing the
// domain asks again; the platform's own hosts can never be a reseller's; only an admin approves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerByEmail } from '../src/auth/accounts';
import { approvedSiteOfReseller, findSiteConfig } from '../src/settings/site-config';
import { setSysSection } from '../src/settings/sys-config';
import { admin, Client, dialects, signedIn, startServer, startSmtp, type TestServer } from './helpers';

type Smtp = Awaited<ReturnType<typeof startSmtp>>;

describe.each(dialects)('sites and domains on %s', (dialect) => {
  let server: TestServer;
  let platformSmtp: Smtp;
  let resellerSmtp: Smtp;
  let a: Client;
  let r1: Client & { userId: number };
  let r2: Client & { userId: number };
  const anon = () => new Client(server.url);
  const identity = async (domain: string) => (await anon().post('/api/v1/open/site/config', { domain })).body.data as { title: string; announcements: { content: string }[] };

  beforeAll(async () => {
    // The fake SMTP servers listen on 127.0.0.1: let resellers' mail servers use it here (MAIL_PRIVATE_ALLOW).
    server = await startServer(dialect, { MAIL_PRIVATE_ALLOW: '127.0.0.1' });
    [platformSmtp, resellerSmtp] = [await startSmtp(), await startSmtp()];
    await setSysSection(server.app.ctx.db, 'email', { open: true, host: '127.0.0.1', port: platformSmtp.port });
    a = await admin(server);
    r1 = await signedIn(server, 'reseller', 'claim-r1');
    r2 = await signedIn(server, 'reseller', 'claim-r2');
  });
  afterAll(async () => {
    await platformSmtp?.close();
    await resellerSmtp?.close();
    await server?.close();
  });

  it('a pending site decides nothing: identity, registration owner and mail stay the platform\'s until an admin approves', async () => {
    const db = server.app.ctx.db;
    const domain = `claim-${dialect}.example.com`;
    const created = await r1.post('/api/v1/sys/site/create', { domain, title: 'Claimed', announcements: [{ content: 'Send us your keys' }], host: '127.0.0.1', port: resellerSmtp.port });
    expect(created.body.code).toBe(0);
    const id = created.body.data.id as string;
    expect((await r1.get('/api/v1/sys/site/detail', { id })).body.data).toMatchObject({ domain, approved: 0 });

    // Identity: the platform's defaults, not the reseller's title and announcements.
    const before = await identity(domain);
    expect(before.title).not.toBe('Claimed');
    expect(before.announcements).not.toContainEqual(expect.objectContaining({ content: 'Send us your keys' }));
    expect(await findSiteConfig(db, domain)).toBeUndefined();
    expect(await approvedSiteOfReseller(db, r1.userId)).toBeUndefined();

    // Registration owner: a newcomer on that domain is the platform's, not the reseller's.
    const early = await registerByEmail(server.app.ctx, { role: 'user', email: `early-${dialect}@example.com`, password: 'secret-1', domain });
    expect(early.rid).toBe(0);

    // Mail: the registration code goes through the platform's server, never the reseller's.
    const newcomer = `newcomer-${dialect}@example.com`;
    expect((await anon().post('/api/v1/common/email-code', { email: newcomer, action: 'register', channel: 'user', domain })).body.code).toBe(0);
    await platformSmtp.codeFor(newcomer);
    expect(resellerSmtp.mails.filter((m) => m.to === newcomer)).toEqual([]);

    // The admin approves: now the domain is the reseller's.
    expect((await a.post('/api/v1/sys/site/change/approval', { id, approved: 1 })).body.code).toBe(0);
    expect((await r1.post('/api/v1/sys/site/page', {})).body.data.items[0]).toMatchObject({ id, approved: 1 });
    expect(await identity(domain)).toMatchObject({ title: 'Claimed', announcements: [{ content: 'Send us your keys' }] });
    expect((await approvedSiteOfReseller(db, r1.userId))?.id).toBe(id);
    const late = await registerByEmail(server.app.ctx, { role: 'user', email: `late-${dialect}@example.com`, password: 'secret-1', domain });
    expect(late.rid).toBe(r1.userId);
    const second = `second-${dialect}@example.com`;
    expect((await anon().post('/api/v1/common/email-code', { email: second, action: 'register', channel: 'user', domain })).body.code).toBe(0);
    await resellerSmtp.codeFor(second);
    expect(platformSmtp.mails.filter((m) => m.to === second)).toEqual([]);

    // Disabled (status 2) still decides nothing, approved or not.
    await r1.post('/api/v1/sys/site/change/status', { id, status: 2 });
    expect((await identity(domain)).title).not.toBe('Claimed');
    expect(await approvedSiteOfReseller(db, r1.userId)).toBeUndefined();
    await r1.post('/api/v1/sys/site/change/status', { id, status: 1 });

    // Editing the content keeps the approval; moving to another domain asks again.
    const detail = (await r1.get('/api/v1/sys/site/detail', { id })).body.data;
    expect((await r1.post('/api/v1/sys/site/update', { ...detail, title: 'Claimed v2' })).body.code).toBe(0);
    expect((await identity(domain)).title).toBe('Claimed v2');
    const moved = `moved-${dialect}.example.com`;
    expect((await r1.post('/api/v1/sys/site/update', { ...detail, domain: moved, title: 'Claimed v2' })).body.code).toBe(0);
    expect((await r1.get('/api/v1/sys/site/detail', { id })).body.data).toMatchObject({ domain: moved, approved: 0 });
    expect((await identity(moved)).title).not.toBe('Claimed v2');
    expect((await identity(domain)).title).not.toBe('Claimed v2');
    const afterMove = await registerByEmail(server.app.ctx, { role: 'user', email: `moved-${dialect}@example.com`, password: 'secret-1', domain: moved });
    expect(afterMove.rid).toBe(0);

    // Revoking works the same way back.
    await a.post('/api/v1/sys/site/change/approval', { id, approved: 1 });
    expect((await identity(moved)).title).toBe('Claimed v2');
    expect((await a.post('/api/v1/sys/site/change/approval', { id, approved: 0 })).body.code).toBe(0);
    expect((await identity(moved)).title).not.toBe('Claimed v2');
  });

  it('only an admin approves; a reseller can neither approve nor keep an approval by its own request', async () => {
    const mine = (await r2.post('/api/v1/sys/site/create', { domain: `self-${dialect}.example.com`, title: 'Self' })).body.data.id as string;
    const self = await r2.post('/api/v1/sys/site/change/approval', { id: mine, approved: 1 });
    expect(self.status).toBe(401);
    expect(self.body.code).toBe(401);
    const user = await signedIn(server, 'user', `approve-user-${dialect}`);
    expect((await user.post('/api/v1/sys/site/change/approval', { id: mine, approved: 1 })).status).toBe(401);
    // Fields the form does not own are ignored: `approved` in a create or update body does nothing.
    const detail = (await r2.get('/api/v1/sys/site/detail', { id: mine })).body.data;
    await r2.post('/api/v1/sys/site/update', { ...detail, approved: 1 });
    const sneaky = await r2.post('/api/v1/sys/site/create', { domain: `sneaky-${dialect}.example.com`, approved: 1 });
    for (const id of [mine, sneaky.body.data.id]) expect((await r2.get('/api/v1/sys/site/detail', { id })).body.data.approved).toBe(0);

    // Bad input and unknown ids: clear envelope errors.
    expect((await a.post('/api/v1/sys/site/change/approval', { id: mine, approved: 2 })).body.code).toBe(51);
    expect((await a.post('/api/v1/sys/site/change/approval', { id: 'nope', approved: 1 })).body).toMatchObject({ code: 50, message: '记录不存在' });

    // Scope: a reseller sees only its own sites and their state; the admin sees pending ones first.
    const own = (await r2.post('/api/v1/sys/site/page', {})).body.data.items as { id: string; approved: number }[];
    expect(own.map((s) => s.id).sort()).toEqual([mine, sneaky.body.data.id].sort());
    expect((await r2.post('/api/v1/sys/site/page', { approved: 1 })).body.data.items).toEqual([]);
    const adminOwn = await a.post('/api/v1/sys/site/create', { domain: `platform-${dialect}.example.com`, title: 'Platform' });
    expect((await a.get('/api/v1/sys/site/detail', { id: adminOwn.body.data.id })).body.data.approved).toBe(1);
    expect((await identity(`platform-${dialect}.example.com`)).title).toBe('Platform');
    const all = (await a.post('/api/v1/sys/site/page', { pageSize: 100 })).body.data.items as { approved: number }[];
    expect(all.map((s) => s.approved)).toEqual([...all.map((s) => s.approved)].sort());
    expect((await a.post('/api/v1/sys/site/page', { approved: 0, user_id: r2.userId })).body.data.paging.total).toBe(2);
  });

  it('never lets a reseller claim the platform\'s own hosts', async () => {
    const db = server.app.ctx.db;
    // The hosts the admins sign in on are the platform's.
    await db.updateTable('users').set({ login_domain: 'console.platform.test' }).where('role', '=', 'admin').execute();
    await a.post('/api/v1/sys/config/update', { action: 'sites', sites: { reserved_hosts: ['api.platform.test', '*.brand.test'] } });
    const claim = (domain: string) => r2.post('/api/v1/sys/site/create', { domain, title: 'Mine now' });
    for (const domain of ['127.0.0.1', '10.0.0.8', '2130706433', 'localhost', 'app.localhost', 'console.platform.test', 'CONSOLE.platform.test', 'api.platform.test', 'x.brand.test', 'deep.x.brand.test']) {
      const r = await claim(domain);
      expect(r.body, domain).toMatchObject({ code: 50, message: `域名 ${domain.toLowerCase()} 是平台保留的域名，不能用作代理商站点` });
    }
    expect(await db.selectFrom('site_configs').select('id').where('title', '=', 'Mine now').execute()).toEqual([]);
    // Not covered by `*.brand.test`: the bare domain.
    const bare = await claim('brand.test');
    expect(bare.body.code).toBe(0);

    // Moving an existing site onto a reserved host is refused the same way, in English too.
    const detail = (await r2.get('/api/v1/sys/site/detail', { id: bare.body.data.id })).body.data;
    r2.lang = 'en-US';
    const moved = await r2.post('/api/v1/sys/site/update', { ...detail, domain: 'api.platform.test' });
    r2.lang = 'zh-CN';
    expect(moved.body).toMatchObject({ code: 50, message: 'The domain api.platform.test is reserved for the platform and cannot be used for a reseller site' });
    expect((await r2.get('/api/v1/sys/site/detail', { id: bare.body.data.id })).body.data.domain).toBe('brand.test');

    // A host reserved after the claim cannot be approved.
    await a.post('/api/v1/sys/config/update', { action: 'sites', sites: { reserved_hosts: ['api.platform.test', '*.brand.test', 'brand.test'] } });
    expect((await a.post('/api/v1/sys/site/change/approval', { id: bare.body.data.id, approved: 1 })).body.code).toBe(50);
    expect((await r2.get('/api/v1/sys/site/detail', { id: bare.body.data.id })).body.data.approved).toBe(0);

    // The admin's own sites may use them (approved at once).
    const own = await a.post('/api/v1/sys/site/create', { domain: 'api.platform.test', title: 'Official' });
    expect(own.body.code).toBe(0);
    expect((await identity('api.platform.test')).title).toBe('Official');

    // A malformed entry in the setting names the field.
    const bad = await a.post('/api/v1/sys/config/update', { action: 'sites', sites: { reserved_hosts: ['not a host'] } });
    expect(bad.body.code).toBe(51);
    expect(bad.body.message).toContain('sites.reserved_hosts.0');
    await a.post('/api/v1/sys/config/reset', { action: 'sites' });
  });
});

describe('sites of a second admin', () => {
  it("make newcomers the platform's users, not that admin's", async () => {
    const server = await startServer('sqlite');
    try {
      const second = await signedIn(server, 'admin', 'second-admin');
      expect((await second.post('/api/v1/sys/site/create', { domain: 'ops.example', title: 'Ops' })).body.code).toBe(0);
      const newcomer = await registerByEmail(server.app.ctx, { role: 'user', email: 'walkin@ops.example', domain: 'ops.example' });
      expect(newcomer.rid).toBe(0);
    } finally {
      await server.close();
    }
  });
});
