// Issue 11, finding 8 (unlimited uploads): a reseller's uploads are bounded per account (files and
// bytes, from the system config; admins unlimited), also under 40 parallel uploads, and files no site
// config references are removed once past their grace period — by the housekeeping job and when the
// owner's site config is saved or deleted.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { housekeep } from '../src/jobs/housekeeping';
import { UPLOAD_GRACE_MS } from '../src/settings/upload-quota';
import { uploadDir } from '../src/settings/uploads';
import { admin, Client, dialects, signedIn, startServer, type TestServer } from './helpers';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000000000200015e2b4f0a0000000049454e44ae426082', 'hex');
const QUOTA_TEXT = /^上传文件已达上限（最多 \d+ 个、共 \d+MB）；未被站点配置使用的文件会在 24 小时后自动清理$/;

/** Multipart upload as the console sends it. */
async function upload(client: Client, data: Buffer = PNG) {
  if (!(client as unknown as { xsrf: string }).xsrf) await client.post('/api/v1/open/sys/config');
  const xsrf = (client as unknown as { xsrf: string }).xsrf;
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type: 'image/png' }), 'x.png');
  const res = await fetch(`${client.base}/api/v1/sys/site/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.token}`, cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf, 'accept-language': client.lang },
    body: form,
  });
  return (await res.json()) as { code: number; message: string; data: { url: string } | null };
}

describe.each(dialects)('upload quota and cleanup on %s', (dialect) => {
  let server: TestServer;
  let a: Client;
  const dir = () => uploadDir(server.app.ctx.config.dataDir);
  const files = () => (fs.existsSync(dir()) ? fs.readdirSync(dir()) : []);
  const rows = async (userId: number) => server.app.ctx.db.selectFrom('uploads').selectAll().where('user_id', '=', userId).execute();
  const nameOf = (url: string) => url.slice('/uploads/'.length);

  beforeAll(async () => {
    server = await startServer(dialect);
    a = await admin(server);
  });
  afterAll(() => server?.close());

  it('holds 40 parallel uploads of one reseller to the default 20 files, with clear refusals', async () => {
    const r = await signedIn(server, 'reseller', 'up-race');
    const before = files().length;
    const answers = await Promise.all(Array.from({ length: 40 }, () => upload(r)));
    const ok = answers.filter((x) => x.code === 0);
    expect(ok).toHaveLength(20);
    for (const refused of answers.filter((x) => x.code !== 0)) expect(refused).toMatchObject({ code: 50, message: expect.stringMatching(QUOTA_TEXT), data: null });
    expect(await rows(r.userId)).toHaveLength(20);
    // A refused upload leaves no file behind.
    expect(files().length - before).toBe(20);
    // Another reseller has its own quota; admins are not limited.
    expect((await upload(await signedIn(server, 'reseller', 'up-other'))).code).toBe(0);
    for (let i = 0; i < 3; i++) expect((await upload(a)).code).toBe(0);
  });

  it('counts bytes too, and the admin sets both limits in the system config', async () => {
    const r = await signedIn(server, 'reseller', 'up-bytes');
    expect((await a.post('/api/v1/sys/config/update', { action: 'sites', sites: { upload_max_files: 3, upload_max_mb: 1 } })).body.code).toBe(0);
    const big = Buffer.concat([PNG, Buffer.alloc(700 * 1024)]);
    expect((await upload(r, big)).code).toBe(0);
    const over = await upload(r, big);
    expect(over).toMatchObject({ code: 50, message: '上传文件已达上限（最多 3 个、共 1MB）；未被站点配置使用的文件会在 24 小时后自动清理' });
    expect((await upload(r)).code).toBe(0);
    expect((await upload(r)).code).toBe(0);
    expect((await upload(r)).code).toBe(50); // the fourth file
    r.lang = 'en-US';
    expect((await upload(r)).message).toBe('Upload limit reached (at most 3 files, 1 MB in all); files no site config uses are removed after 24 hours');
    await a.post('/api/v1/sys/config/reset', { action: 'sites' });
    expect((await upload(r)).code).toBe(0);
  });

  it('cleans up what no site config references once past the grace period, keeping referenced and recent files', async () => {
    const db = server.app.ctx.db;
    const r = await signedIn(server, 'reseller', 'up-clean');
    const urls = [];
    for (let i = 0; i < 5; i++) urls.push((await upload(r)).data!.url);
    const [logo, carousel, stale, recent, shared] = urls as [string, string, string, string, string];
    const site = await r.post('/api/v1/sys/site/create', { domain: `clean-${dialect}.example.com`, logo, carousels1: [{ image_url: carousel, jump_url: '' }] });
    expect(site.body.code).toBe(0);
    // Another owner's site may use this reseller's file: it is kept too.
    await a.post('/api/v1/sys/site/create', { domain: `clean-admin-${dialect}.example.com`, favicon: shared });
    const old = Date.now() - UPLOAD_GRACE_MS - 60_000;
    await db.updateTable('uploads').set({ created_at: old }).where('name', 'in', [logo, carousel, stale, shared].map(nameOf)).execute();
    // Files stored before uploads were counted (no row): an old unreferenced one goes, a new one stays.
    const orphanOld = `${'a'.repeat(32)}.png`;
    const orphanNew = `${'b'.repeat(32)}.png`;
    for (const name of [orphanOld, orphanNew]) fs.writeFileSync(path.join(dir(), name), PNG);
    fs.utimesSync(path.join(dir(), orphanOld), old / 1000, old / 1000);

    const { uploads } = await housekeep(server.app.ctx);
    expect(uploads).toBeGreaterThanOrEqual(2);
    const left = new Set(files());
    for (const url of [logo, carousel, recent, shared]) expect(left.has(nameOf(url)), url).toBe(true);
    expect(left.has(nameOf(stale))).toBe(false);
    expect(left.has(orphanOld)).toBe(false);
    expect(left.has(orphanNew)).toBe(true);
    expect((await fetch(server.url + stale)).status).toBe(404);
    expect((await fetch(server.url + logo)).status).toBe(200);
    expect((await rows(r.userId)).map((x) => x.name).sort()).toEqual([logo, carousel, recent, shared].map(nameOf).sort());

    // Saving the site with another logo frees the old one at once (it is past its grace period).
    const detail = (await r.get('/api/v1/sys/site/detail', { id: site.body.data.id })).body.data;
    expect((await r.post('/api/v1/sys/site/update', { ...detail, logo: recent })).body.code).toBe(0);
    expect(files()).not.toContain(nameOf(logo));
    expect(files()).toContain(nameOf(recent));
    // Deleting the site frees what only it used; a recent file waits for its grace period.
    expect((await r.post('/api/v1/sys/site/delete', { id: site.body.data.id })).body.code).toBe(0);
    expect(files()).not.toContain(nameOf(carousel));
    expect(files()).toContain(nameOf(recent));
    expect(files()).toContain(nameOf(shared));
    expect((await rows(r.userId)).map((x) => x.name).sort()).toEqual([recent, shared].map(nameOf).sort());
  });
});
