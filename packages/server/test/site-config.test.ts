import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, Client, dialects, signedIn, startServer, startSmtp, type TestServer } from './helpers';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000000000200015e2b4f0a0000000049454e44ae426082', 'hex');

/** Multipart upload as the console sends it (the Client keeps the XSRF cookie of its earlier calls). */
async function upload(client: Client, name: string, data: Buffer, type = 'image/png') {
  if (!(client as unknown as { xsrf: string }).xsrf) await client.post('/api/v1/open/sys/config');
  const xsrf = (client as unknown as { xsrf: string }).xsrf;
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const res = await fetch(`${client.base}/api/v1/sys/site/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.token}`, cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { code: number; message: string; data: { url: string } } };
}

describe.each(dialects)('site configs on %s', (dialect) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let a: Client;
  let reseller: Client & { userId: number };
  let other: Client & { userId: number };
  let user: Client & { userId: number };

  beforeAll(async () => {
    server = await startServer(dialect);
    smtp = await startSmtp();
    a = await admin(server);
    reseller = await signedIn(server, 'reseller', 'site-res1');
    other = await signedIn(server, 'reseller', 'site-res2');
    user = await signedIn(server, 'user', 'site-user1');
  });
  afterAll(async () => {
    await smtp?.close();
    await server?.close();
  });

  it('admin and reseller scopes; users are refused', async () => {
    const mine = await reseller.post('/api/v1/sys/site/create', { domain: 'Res1.Example.com', title: 'Res One', carousels1: [{ image_url: '/uploads/x.png', jump_url: 'https://a' }] });
    expect(mine.body.code).toBe(0);
    const theirs = await other.post('/api/v1/sys/site/create', { domain: 'res2.example.com', title: 'Res Two' });
    expect(theirs.body.code).toBe(0);
    const adminOwn = await a.post('/api/v1/sys/site/create', { domain: 'admin.example.com', title: 'Admin' });
    expect(adminOwn.body.code).toBe(0);

    const d = await reseller.get('/api/v1/sys/site/detail', { id: mine.body.data.id });
    expect(d.body.data).toMatchObject({ domain: 'res1.example.com', title: 'Res One', user_id: reseller.userId, carousels1: [{ image_url: '/uploads/x.png', jump_url: 'https://a' }], status: 1 });

    // A reseller sees only its own; foreign ids are "not found" on every verb.
    const page = await reseller.post('/api/v1/sys/site/page', {});
    expect(page.body.data.items.map((r: { domain: string }) => r.domain)).toEqual(['res1.example.com']);
    const foreign = theirs.body.data.id;
    for (const [verb, body] of [
      ['update', { id: foreign, domain: 'res2.example.com', title: 'hijack' }],
      ['change/status', { id: foreign, status: 2 }],
      ['delete', { id: foreign }],
      ['batch/operate', { action: 'status', ids: [foreign], value: 2 }],
      ['test/mail', { id: foreign, to: 'x@example.com' }],
    ] as const) {
      expect((await reseller.post(`/api/v1/sys/site/${verb}`, body)).body).toMatchObject({ code: 50, message: '记录不存在' });
    }
    expect((await reseller.get('/api/v1/sys/site/detail', { id: foreign })).body).toMatchObject({ code: 50, message: '记录不存在' });
    expect((await reseller.get('/api/v1/sys/site/detail', { id: adminOwn.body.data.id })).body.code).toBe(50);
    expect((await other.get('/api/v1/sys/site/detail', { id: foreign })).body.data.title).toBe('Res Two');

    // The admin sees and manages all.
    const all = await a.post('/api/v1/sys/site/page', { domain: 'example.com' });
    expect(all.body.data.items).toHaveLength(3);
    expect((await a.post('/api/v1/sys/site/page', { user_id: other.userId })).body.data.items.map((r: { domain: string }) => r.domain)).toEqual(['res2.example.com']);
    expect((await a.post('/api/v1/sys/site/page', { title: 'res' })).body.data.items).toHaveLength(2);
    expect((await a.post('/api/v1/sys/site/change/status', { id: foreign, status: 2 })).body.code).toBe(0);
    expect((await a.post('/api/v1/sys/site/page', { status: 2 })).body.data.items.map((r: { id: string }) => r.id)).toEqual([foreign]);
    expect((await a.post('/api/v1/sys/site/batch/operate', { action: 'status', ids: [foreign], value: 1 })).body.code).toBe(0);

    // Users: HTTP 401 on every verb.
    for (const verb of ['create', 'update', 'page', 'delete', 'change/status', 'batch/operate', 'test/mail', 'upload']) {
      const r = await user.post(`/api/v1/sys/site/${verb}`, { id: foreign });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe(401);
    }
    expect((await user.get('/api/v1/sys/site/detail', { id: foreign })).status).toBe(401);

    expect((await other.post('/api/v1/sys/site/delete', { id: foreign })).body.code).toBe(0);
    expect((await a.get('/api/v1/sys/site/detail', { id: foreign })).body.code).toBe(50);
  });

  it('rejects duplicate domains and bad input, writing nothing', async () => {
    await a.post('/api/v1/sys/site/create', { domain: 'dup.example.com' });
    const before = (await a.post('/api/v1/sys/site/page', {})).body.data.paging.total;
    const dup = await reseller.post('/api/v1/sys/site/create', { domain: 'DUP.example.com' });
    expect(dup.body).toMatchObject({ code: 50, message: '域名 dup.example.com 已存在站点配置' });
    const bad = await a.post('/api/v1/sys/site/create', { domain: 'not a host!' });
    expect(bad.body.code).toBe(51);
    expect(bad.body.message).toContain('domain');
    const badHost = await a.post('/api/v1/sys/site/create', { domain: 'ok.example.com', host: 'smtp host', port: 25 });
    expect(badHost.body.code).toBe(51);
    expect(badHost.body.message).toContain('host');
    const badPort = await a.post('/api/v1/sys/site/create', { domain: 'ok.example.com', host: 'smtp.example.com', port: 70000 });
    expect(badPort.body.message).toContain('port');
    const badList = await a.post('/api/v1/sys/site/create', { domain: 'ok.example.com', documents: [{ title: '', jump_url: '' }] });
    expect(badList.body.message).toContain('documents.0.title');
    expect((await a.post('/api/v1/sys/site/page', {})).body.data.paging.total).toBe(before);

    // Renaming onto a taken domain fails too.
    const mine = (await reseller.post('/api/v1/sys/site/page', {})).body.data.items[0];
    const clash = await reseller.post('/api/v1/sys/site/update', { id: mine.id, domain: 'dup.example.com' });
    expect(clash.body.code).toBe(50);
    expect((await reseller.get('/api/v1/sys/site/detail', { id: mine.id })).body.data.domain).toBe('res1.example.com');
  });

  it('stores the mail password encrypted and never returns it; sends a test mail', async () => {
    const created = await a.post('/api/v1/sys/site/create', { domain: 'mail.example.com', host: '127.0.0.1', port: smtp.port, user_name: 'bot@mail.example.com', password: 'smtp-secret', from_name: 'Mail Site' });
    // The SMTP helper takes no logins: the test mail goes out from a config without a user name.
    const anonymous = await a.post('/api/v1/sys/site/create', { domain: 'mail2.example.com', host: '127.0.0.1', port: smtp.port, from_name: 'Mail Two' });
    const id = created.body.data.id;
    const row = await server.app.ctx.db.selectFrom('site_configs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.mail_password).not.toContain('smtp-secret');
    expect(server.app.ctx.secrets.decrypt(row.mail_password)).toBe('smtp-secret');
    const detail = await a.get('/api/v1/sys/site/detail', { id });
    expect(detail.body.data).toMatchObject({ host: '127.0.0.1', port: smtp.port, password: '', password_set: true, from_name: 'Mail Site' });
    const page = await a.post('/api/v1/sys/site/page', { domain: 'mail.example.com' });
    expect(JSON.stringify(page.body)).not.toContain('smtp-secret');
    expect(JSON.stringify(page.body)).not.toContain(row.mail_password);

    // An update with an empty password keeps it; clear_password removes it.
    await a.post('/api/v1/sys/site/update', { ...detail.body.data, title: 'Renamed', password: '' });
    const kept = await server.app.ctx.db.selectFrom('site_configs').select('mail_password').where('id', '=', id).executeTakeFirstOrThrow();
    expect(server.app.ctx.secrets.decrypt(kept.mail_password)).toBe('smtp-secret');

    // The test mail goes through that config's own server; with a login the helper's answer is shown.
    const login = await a.post('/api/v1/sys/site/test/mail', { id, to: 'admin@example.com' });
    expect(login.body.message).toMatch(/^测试邮件发送失败：EAUTH/);
    const sent = await a.post('/api/v1/sys/site/test/mail', { id: anonymous.body.data.id, to: 'Admin@Example.com' });
    expect(sent.body, sent.body.message).toMatchObject({ code: 0, data: { sent: true } });
    expect(smtp.mails.some((m) => m.to === 'admin@example.com' && m.text.includes('mail2.example.com'))).toBe(true);

    await a.post('/api/v1/sys/site/update', { ...detail.body.data, clear_password: true });
    expect((await a.get('/api/v1/sys/site/detail', { id })).body.data.password_set).toBe(false);

    // A server nobody listens on: a clear envelope error.
    const dead = await a.post('/api/v1/sys/site/create', { domain: 'dead.example.com', host: '127.0.0.1', port: 1 });
    const failed = await a.post('/api/v1/sys/site/test/mail', { id: dead.body.data.id, to: 'a@example.com' });
    expect(failed.body.code).toBe(50);
    expect(failed.body.message).toMatch(/^测试邮件发送失败：.*ECONNREFUSED/);
    const none = await a.post('/api/v1/sys/site/create', { domain: 'nomail.example.com' });
    expect((await a.post('/api/v1/sys/site/test/mail', { id: none.body.data.id, to: 'a@example.com' })).body.message).toBe('该站点未配置邮件服务器');
    expect((await a.post('/api/v1/sys/site/test/mail', { id: none.body.data.id, to: 'nope' })).body.code).toBe(51);
  });

  it('serves the identity publicly, blocks registration with register_tips and grants quota', async () => {
    const anon = new Client(server.url);
    const site = await a.post('/api/v1/sys/site/create', {
      domain: 'brand.example.com', title: 'Brand', logo: '/uploads/logo.png', favicon: '/uploads/fav.ico',
      host: '127.0.0.1', port: smtp.port, grant_quota: 1_500_000, quota_expires_at: 60, support_email_suffix: ['example.com'],
      announcements: [{ content: 'Hello', jump_url: '' }],
    });
    const open = await anon.post('/api/v1/open/site/config', { domain: 'brand.example.com' });
    expect(open.body.data).toMatchObject({ domain: 'brand.example.com', title: 'Brand', logo: '/uploads/logo.png', favicon: '/uploads/fav.ico', avatar: '/avatar.png', announcements: [{ content: 'Hello', jump_url: '' }] });
    expect(open.body.data).not.toHaveProperty('grant_quota');
    expect(open.body.data).not.toHaveProperty('host');

    const email = `grant-${dialect}@example.com`;
    const before = Date.now();
    expect((await anon.post('/api/v1/common/email-code', { email, action: 'register', channel: 'user', domain: 'brand.example.com' })).body.code).toBe(0);
    const reg = await anon.post('/api/v1/auth/register', { account: email, password: 'secret-1', code: await smtp.codeFor(email), channel: 'user', domain: 'brand.example.com' });
    expect(reg.body.code).toBe(0);
    const account = await server.app.ctx.db.selectFrom('users').select(['quota', 'quota_expires_at']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(Number(account.quota)).toBe(1_500_000);
    expect(Number(account.quota_expires_at)).toBeGreaterThanOrEqual(before + 60 * 60_000);
    expect(Number(account.quota_expires_at)).toBeLessThan(Date.now() + 61 * 60_000);

    const detail = (await a.get('/api/v1/sys/site/detail', { id: site.body.data.id })).body.data;
    expect((await a.post('/api/v1/sys/site/update', { ...detail, register_tips: '暂停注册' })).body.code).toBe(0);
    const email2 = `blocked-${dialect}@example.com`;
    await anon.post('/api/v1/common/email-code', { email: email2, action: 'register', channel: 'user', domain: 'brand.example.com' });
    const code = await smtp.codeFor(email2).catch(() => '123456');
    const blocked = await anon.post('/api/v1/auth/register', { account: email2, password: 'secret-1', code, channel: 'user', domain: 'brand.example.com' });
    // The site's own words are the message (docs/ORIGINAL-API.md §3.9).
    expect(blocked.body).toMatchObject({ code: 50, message: '暂停注册' });
    expect(await server.app.ctx.db.selectFrom('users').select('user_id').where('email', '=', email2).executeTakeFirst()).toBeUndefined();
  });

  it('uploads images sniffed by content and serves them immutably', async () => {
    const ok = await upload(reseller, 'logo.png', PNG);
    expect(ok.body.code).toBe(0);
    expect(ok.body.data.url).toMatch(/^\/uploads\/[a-f0-9]{32}\.png$/);
    const served = await fetch(server.url + ok.body.data.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);

    const svg = await upload(a, 'icon.svg', Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml');
    expect(svg.body.data.url).toMatch(/\.svg$/);
    expect((await fetch(server.url + svg.body.data.url)).headers.get('content-security-policy')).toContain('sandbox');

    const fake = await upload(a, 'fake.png', Buffer.from('just some text, not an image'));
    expect(fake.body).toMatchObject({ code: 51, message: '只支持 png、jpeg、gif、webp、ico、svg 图片' });
    const big = await upload(a, 'big.png', Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]));
    expect(big.body.code).toBe(51);
    expect(big.body.message).toContain('2MB');
    expect((await a.post('/api/v1/sys/site/upload', {})).body.code).toBe(51);

    for (const path of ['/uploads/..%2f..%2fmaster.key', '/uploads/../master.key', '/uploads/%2e%2e/master.key', `/uploads/${'0'.repeat(32)}.png`]) {
      const res = await fetch(server.url + path);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toMatch(/^[0-9a-f]{64}$/);
    }
  });
});
