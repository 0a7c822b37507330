// Issue 11, finding 5 (port scanner): a reseller's mail server must be a public address — saved or
// tested — and a reseller's failed test mail says nothing about the connection; the admin keeps the
// detail. 127.0.0.2 stands in for a "public" host here (MAIL_PRIVATE_ALLOW), since tests reach no internet:
// nothing listens there, like a closed port out on the internet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, Client, dialects, signedIn, startServer, startSmtp, type TestServer } from './helpers';

const GENERIC = '测试邮件发送失败，请检查邮件服务器地址、端口、账号和密码';
const notPublic = (host: string) => `${host} 指向本机、内网或保留地址，不允许使用`;

describe.each(dialects)('mail servers of resellers on %s', (dialect) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let a: Client;
  let r: Client & { userId: number };

  beforeAll(async () => {
    server = await startServer(dialect, { MAIL_PRIVATE_ALLOW: '127.0.0.2' });
    smtp = await startSmtp();
    a = await admin(server);
    r = await signedIn(server, 'reseller', 'scan-r1');
  });
  afterAll(async () => {
    await smtp?.close();
    await server?.close();
  });

  it('refuses loopback, private, link-local and other non-public mail hosts when a reseller saves them', async () => {
    const hosts = ['127.0.0.1', '127.9.9.9', '10.1.2.3', '172.16.5.4', '192.168.1.1', '100.64.0.1', '169.254.169.254', '0.0.0.0', '224.0.0.1', '255.255.255.255', 'localhost'];
    for (const [i, host] of hosts.entries()) {
      const res = await r.post('/api/v1/sys/site/create', { domain: `scan${i}-${dialect}.example.com`, host, port: 25 });
      expect(res.body, host).toMatchObject({ code: 50, message: notPublic(host) });
    }
    expect(await server.app.ctx.db.selectFrom('site_configs').select('id').where('user_id', '=', r.userId).execute()).toEqual([]);

    // Updating an existing site onto one is refused the same way, and nothing changes.
    const site = await r.post('/api/v1/sys/site/create', { domain: `scan-${dialect}.example.com`, host: '127.0.0.2', port: 1 });
    expect(site.body.code).toBe(0);
    const detail = (await r.get('/api/v1/sys/site/detail', { id: site.body.data.id })).body.data;
    expect((await r.post('/api/v1/sys/site/update', { ...detail, host: 'localhost', port: smtp.port })).body).toMatchObject({ code: 50, message: notPublic('localhost') });
    expect((await r.get('/api/v1/sys/site/detail', { id: site.body.data.id })).body.data).toMatchObject({ host: '127.0.0.2', port: 1 });

    // A name that does not resolve (yet) is kept: it is checked again when mail goes through it.
    const later = await r.post('/api/v1/sys/site/update', { ...detail, host: 'smtp.not-yet.invalid' });
    expect(later.body.code).toBe(0);
    expect((await r.post('/api/v1/sys/site/test/mail', { id: site.body.data.id, to: 'me@example.com' })).body).toMatchObject({ code: 50, message: '无法解析主机 smtp.not-yet.invalid' });
    await r.post('/api/v1/sys/site/update', { ...detail, host: '127.0.0.2', port: 1 });
  });

  it('never connects a reseller\'s test mail to a private target, even one stored before the check', async () => {
    const db = server.app.ctx.db;
    const site = await r.post('/api/v1/sys/site/create', { domain: `stored-${dialect}.example.com` });
    const id = site.body.data.id as string;
    // As if saved before this check existed (or a name whose DNS answer changed since): the live SMTP helper.
    for (const host of ['127.0.0.1', 'localhost']) {
      await db.updateTable('site_configs').set({ mail_host: host, mail_port: smtp.port }).where('id', '=', id).execute();
      const res = await r.post('/api/v1/sys/site/test/mail', { id, to: 'probe@example.com' });
      expect(res.body, host).toMatchObject({ code: 50, message: notPublic(host) });
    }
    await db.updateTable('site_configs').set({ mail_host: '10.0.0.1', mail_port: 22 }).where('id', '=', id).execute();
    expect((await r.post('/api/v1/sys/site/test/mail', { id, to: 'probe@example.com' })).body.message).toBe(notPublic('10.0.0.1'));
    expect(smtp.mails.filter((m) => m.to === 'probe@example.com')).toEqual([]);
    // The rule is the site's, not the caller's: the admin testing a reseller's site is refused too.
    expect((await a.post('/api/v1/sys/site/test/mail', { id, to: 'probe@example.com' })).body.message).toBe(notPublic('10.0.0.1'));
  });

  it('gives a reseller one generic failure text; the admin sees the connection error', async () => {
    const res = await r.post('/api/v1/sys/site/create', { domain: `closed-${dialect}.example.com`, host: '127.0.0.2', port: 1 });
    const id = res.body.data.id as string;
    const failed = await r.post('/api/v1/sys/site/test/mail', { id, to: 'me@example.com' });
    expect(failed.body).toEqual({ code: 50, message: GENERIC, data: null });
    r.lang = 'en-US';
    expect((await r.post('/api/v1/sys/site/test/mail', { id, to: 'me@example.com' })).body.message).toBe('The test mail could not be sent; check the mail server host, port, user name and password');
    r.lang = 'zh-CN';

    // The admin, on the same reseller site and on its own (unrestricted) site, gets the detail.
    expect((await a.post('/api/v1/sys/site/test/mail', { id, to: 'me@example.com' })).body.message).toMatch(/^测试邮件发送失败：.*ECONNREFUSED/);
    const own = await a.post('/api/v1/sys/site/create', { domain: `admin-closed-${dialect}.example.com`, host: '127.0.0.1', port: 1 });
    expect((await a.post('/api/v1/sys/site/test/mail', { id: own.body.data.id, to: 'me@example.com' })).body.message).toMatch(/^测试邮件发送失败：.*ECONNREFUSED/);
    const working = await a.post('/api/v1/sys/site/create', { domain: `admin-open-${dialect}.example.com`, host: '127.0.0.1', port: smtp.port });
    expect((await a.post('/api/v1/sys/site/test/mail', { id: working.body.data.id, to: 'ok@example.com' })).body).toMatchObject({ code: 0, data: { sent: true } });
  });
});
