// The audit log (issue 11): every console write, reveal and export of an admin or a reseller leaves one
// row (who, when, IP, route, table, record ids, masked before/after); reads and users leave none; a
// reseller reads only its own rows, a user none; the filters, the xlsx export and the retention purge
// work; an audit insert that fails never fails the write it records.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditLogRow } from '../src/db/schema';
import { newId } from '../src/http/ids';
import { formatTime } from '../src/http/time';
import { purgeAuditLogs } from '../src/jobs/audit-purge';
import { housekeep } from '../src/jobs/housekeeping';
import { maskKey } from '@fastgate/core/key-mask';
import { MASK } from '../src/security/redact';
import { admin, dialects, signedIn, startServer, type Client, type TestServer } from './helpers';

const DAY = 86_400_000;
const AUDIT = '/api/v1/sys/audit';

describe.each(dialects)('audit log on %s', (dialect) => {
  let server: TestServer;
  let a: Client;
  let reseller: Client & { userId: number };
  let other: Client & { userId: number };
  let user: Client & { userId: number };

  const db = () => server.app.ctx.db;
  const rows = (action: string) => db().selectFrom('audit_logs').selectAll().where('action', '=', `/api/v1${action}`).orderBy('created_at').orderBy('id').execute();
  const last = async (action: string): Promise<AuditLogRow> => {
    const all = await rows(action);
    expect(all.length, action).toBeGreaterThan(0);
    return all[all.length - 1]!;
  };
  const count = async () => Number((await db().selectFrom('audit_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const json = (text: string | null) => (text === null ? null : (JSON.parse(text) as Record<string, any>));

  beforeAll(async () => {
    server = await startServer(dialect);
    a = await admin(server);
    reseller = await signedIn(server, 'reseller', `audit-reseller-${dialect}`);
    other = await signedIn(server, 'reseller', `audit-other-${dialect}`);
    user = await signedIn(server, 'user', `audit-user-${dialect}@example.com`, { rid: reseller.userId });
  });
  afterAll(() => server?.close());

  it("records an admin's writes with before, after and the changed fields, secrets masked", async () => {
    // A CRUD update: the row before and after, and what changed.
    const corp = (await a.post('/api/v1/corp/create', { name: 'Audit Corp', code: 'AuditCorp' })).body.data.id as string;
    const created = await last('/corp/create');
    expect(created).toMatchObject({ kind: 'write', user_id: 1, account: 'admin', role: 'admin', ip: '127.0.0.1', table_name: 'corps', record_ids: JSON.stringify([corp]), before: null });
    expect(json(created.after)).toMatchObject({ id: corp, name: 'Audit Corp' });
    expect((await a.post('/api/v1/corp/update', { id: corp, name: 'Audit Corp 2', code: 'AuditCorp' })).body.code).toBe(0);
    const updated = await last('/corp/update');
    expect(json(updated.before)).toMatchObject({ name: 'Audit Corp' });
    expect(json(updated.after)).toMatchObject({ name: 'Audit Corp 2' });
    expect(JSON.parse(updated.changed)).toContain('name');
    expect(JSON.parse(updated.changed)).not.toContain('code');

    // A password set on an account: the hash is masked, and the change still shows.
    const password = 'N3w#Secret!pw';
    const r = (await a.post('/api/v1/admin/reseller/create', { name: 'audited', account: `audited-${dialect}`, email: '', password })).body.data as { id: string };
    const create = await last('/admin/reseller/create');
    expect(json(create.after)).toMatchObject({ account: `audited-${dialect}`, password: MASK });
    const update = { id: r.id, name: 'audited2', account: `audited-${dialect}`, email: '', password: 'An0ther#Secret' };
    expect((await a.post('/api/v1/admin/reseller/update', update)).body.code).toBe(0);
    const up = await last('/admin/reseller/update');
    expect(up.table_name).toBe('users');
    expect(json(up.before)).toMatchObject({ name: 'audited', password_hash: MASK });
    expect(json(up.after)).toMatchObject({ name: 'audited2', password_hash: MASK });
    expect(JSON.parse(up.changed)).toEqual(expect.arrayContaining(['name', 'password_hash']));

    // The system mail password (a sys-config section: its own before/after).
    expect((await a.post('/api/v1/sys/config/update', { action: 'email', email: { host: 'smtp.audit.example', password: 'smtp-audit-secret' } })).body.code).toBe(0);
    const mail = await last('/sys/config/update');
    expect(mail).toMatchObject({ table_name: 'sys_configs', record_ids: '["email"]' });
    expect(json(mail.after)).toMatchObject({ host: 'smtp.audit.example', password: MASK });
    expect(JSON.parse(mail.changed)).toEqual(expect.arrayContaining(['host', 'password']));

    // A provider key typed in: its list mask only.
    const key = 'sk-audit-provider-key-0123456789';
    expect((await a.post('/api/v1/key/create', { type: 2, corp, key })).body.code).toBe(0);
    const keyRow = await last('/key/create');
    expect(json(keyRow.input)).toMatchObject({ key: [maskKey(key)] });

    // A recharge (a non-CRUD write): the account before and after.
    expect((await a.post('/api/v1/admin/user/recharge', { user_id: user.userId, quota: 5000, remark: 'audit' })).body.code).toBe(0);
    const recharge = await last('/admin/user/recharge');
    expect(recharge.table_name).toBe('users');
    expect(json(recharge.after)!.quota - json(recharge.before)!.quota).toBe(5000);

    const all = JSON.stringify(await db().selectFrom('audit_logs').selectAll().execute());
    for (const secret of [password, 'An0ther#Secret', 'smtp-audit-secret', key]) expect(all).not.toContain(secret);
  });

  it("records a reseller's writes as its own", async () => {
    const vip = (await reseller.post('/api/v1/sys/vip/create', { name: 'Gold' })).body.data.id as string;
    expect((await reseller.post('/api/v1/sys/vip/update', { id: vip, name: 'Platinum' })).body.code).toBe(0);
    const row = await last('/sys/vip/update');
    expect(row).toMatchObject({ kind: 'write', user_id: reseller.userId, role: 'reseller', table_name: 'vip_levels', record_ids: JSON.stringify([vip]) });
    expect(json(row.before)).toMatchObject({ name: 'Gold' });
    expect(json(row.after)).toMatchObject({ name: 'Platinum' });
    // A batch: every row, keyed by id.
    const vip2 = (await reseller.post('/api/v1/sys/vip/create', { name: 'Silver' })).body.data.id as string;
    expect((await reseller.post('/api/v1/sys/vip/batch/operate', { action: 'status', ids: [vip, vip2], value: 2 })).body.code).toBe(0);
    const batch = await last('/sys/vip/batch/operate');
    expect(JSON.parse(batch.record_ids).sort()).toEqual([vip, vip2].sort());
    expect(Object.keys(json(batch.after)!).sort()).toEqual([vip, vip2].sort());
    expect(JSON.parse(batch.changed)).toEqual(['status']);
    // A delete keeps what was deleted.
    expect((await reseller.post('/api/v1/sys/vip/delete', { id: vip2 })).body.code).toBe(0);
    const del = await last('/sys/vip/delete');
    expect(json(del.before)).toMatchObject({ id: vip2, name: 'Silver' });
    expect(del.after).toBeNull();
  });

  it('records nothing for reads, refused calls and users', async () => {
    const before = await count();
    await a.post('/api/v1/corp/page', {});
    await a.get('/api/v1/corp/list');
    await a.post('/api/v1/model/permissions', { id: user.userId, action: 'user' });
    await a.post(`${AUDIT}/page`, {});
    await reseller.post('/api/v1/admin/user/page', {});
    await a.post('/api/v1/corp/update', { id: 'nope', name: 'x', code: 'x' });
    await a.post('/api/v1/corp/create', { name: '' });
    await user.post('/api/v1/app/create', { name: 'users-are-not-audited' });
    await user.post('/api/v1/user/update/info', { name: 'someone' });
    expect(await count()).toBe(before);
  });

  it('records reveals and exports', async () => {
    const corp = (await a.post('/api/v1/corp/create', { name: 'Reveal Corp', code: 'RevealCorp' })).body.data.id as string;
    const key = 'sk-audit-reveal-key-abcdef0123';
    const id = (await a.post('/api/v1/key/create', { type: 2, corp, key })).body.data.id as string;
    expect((await a.post('/api/v1/key/copy/field', { id, type: 2 })).body.data.value).toBe(key);
    expect(await last('/key/copy/field')).toMatchObject({ kind: 'reveal', table_name: 'provider_keys', record_ids: JSON.stringify([id]), before: null, after: null });
    const res = await a.raw('POST', `${AUDIT}/export`, JSON.stringify({ kind: 'reveal' }));
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    // Written once the download has ended (the route layer records after the handler).
    await expect.poll(async () => (await rows('/sys/audit/export')).length).toBe(1);
    expect(await last('/sys/audit/export')).toMatchObject({ kind: 'export', user_id: 1, input: JSON.stringify({ kind: 'reveal' }) });
    expect(JSON.stringify(await rows('/key/copy/field'))).not.toContain(key);
  });

  it('shows a reseller only its own rows, and a user nothing', async () => {
    await other.post('/api/v1/sys/vip/create', { name: 'Other' });
    const page = async (c: Client, f: object = {}) => (await c.post(`${AUDIT}/page`, { pageSize: 1000, ...f })).body.data as { items: { id: string; user_id: number }[]; paging: { total: number } };
    const own = await page(reseller);
    expect(own.items.length).toBeGreaterThan(0);
    expect(new Set(own.items.map((i) => i.user_id))).toEqual(new Set([reseller.userId]));
    // A filter naming someone else changes nothing.
    expect((await page(reseller, { user_id: 1 })).paging.total).toBe(own.paging.total);
    const adminRow = (await rows('/corp/create'))[0]!;
    expect((await reseller.get(`${AUDIT}/detail`, { id: adminRow.id })).body).toMatchObject({ code: 50 });
    expect((await other.get(`${AUDIT}/detail`, { id: own.items[0]!.id })).body).toMatchObject({ code: 50 });
    // The export holds the same rows.
    const res = await reseller.raw('POST', `${AUDIT}/export`, JSON.stringify({}));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const ids = book.worksheets[0]!.getColumn(3).values.slice(2);
    expect(new Set(ids)).toEqual(new Set([reseller.userId]));
    // The admin sees everyone's.
    expect((await page(a)).items.some((i) => i.user_id === other.userId)).toBe(true);
    for (const [method, url] of [['POST', 'page'], ['GET', 'detail'], ['POST', 'export']] as const) {
      const r = method === 'GET' ? await user.get(`${AUDIT}/${url}`, { id: adminRow.id }) : await user.post(`${AUDIT}/${url}`, {});
      expect(r.status, url).toBe(401);
    }
  });

  it('filters by time, kind, actor, action, table and record, and shows the detail', async () => {
    const corp = (await a.post('/api/v1/corp/create', { name: 'Filter Corp', code: 'FilterCorp' })).body.data.id as string;
    await a.post('/api/v1/corp/change/status', { id: corp, status: 2 });
    const items = async (f: object) => ((await a.post(`${AUDIT}/page`, { pageSize: 1000, ...f })).body.data.items as { id: string; action: string; record_ids: string[]; user_id: number; kind: string; changed: string[] }[]);
    const byRecord = await items({ table_name: 'corps', record_id: corp });
    expect(byRecord.map((i) => i.action)).toEqual(['/api/v1/corp/change/status', '/api/v1/corp/create']);
    expect(byRecord[0]!.changed).toEqual(['status']);
    expect((await items({ action: 'corp/change' })).every((i) => i.action === '/api/v1/corp/change/status')).toBe(true);
    expect((await items({ user_id: reseller.userId })).every((i) => i.user_id === reseller.userId)).toBe(true);
    expect((await items({ account: 'audit-other' })).every((i) => i.user_id === other.userId)).toBe(true);
    expect((await items({ kind: 'reveal' })).every((i) => i.kind === 'reveal')).toBe(true);
    const today = formatTime(Date.now(), server.app.ctx.config.timeZone).slice(0, 10);
    expect((await items({ created_at: [today, today] })).length).toBeGreaterThan(0);
    expect(await items({ created_at: ['2001-01-01', '2001-01-02'] })).toEqual([]);
    const bad = await a.post(`${AUDIT}/page`, { created_at: ['2031-13-45', ''] });
    expect(bad.body.code).toBe(51);
    expect(bad.body.message).toContain('created_at');

    const detail = (await a.get(`${AUDIT}/detail`, { id: byRecord[0]!.id })).body.data;
    expect(detail).toMatchObject({ table_name: 'corps', record_ids: [corp], changed: ['status'], before: { status: 1 }, after: { status: 2 }, input: { id: corp, status: 2 } });
  });

  it('exports to an xlsx readable by exceljs', async () => {
    const res = await a.raw('POST', `${AUDIT}/export`, JSON.stringify({ table_name: 'corps' }));
    expect(res.headers.get('content-disposition')).toContain(encodeURIComponent('审计日志.xlsx'));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const sheet = book.worksheets[0]!;
    const values = sheet.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
    expect(values[0]).toEqual(['时间', '类型', '操作人ID', '操作人账号', '角色', 'IP', '操作', '数据表', '记录ID', '变更字段', '变更前', '变更后', '请求参数']);
    const body = values.slice(1);
    expect(body.length).toBeGreaterThan(2);
    expect(body.every((r) => r[7] === 'corps')).toBe(true);
    const update = body.find((r) => r[6] === '/api/v1/corp/update')!;
    expect(update[1]).toBe('写入');
    expect(JSON.parse(String(update[10]))).toMatchObject({ name: 'Audit Corp' });
  });

  it('purges rows past the retention in batches, and keeps them all with 0', async () => {
    const now = Date.now();
    const old = (i: number) => ({ id: newId(), created_at: now - 40 * DAY - i, kind: 'write', user_id: 1, account: 'admin', role: 'admin', ip: '', action: '/api/v1/old', table_name: '', record_ids: '[]', changed: '[]', before: null, after: null, input: null });
    await db().insertInto('audit_logs').values(Array.from({ length: 25 }, (_, i) => old(i))).execute();
    const oldCount = async () => (await rows('/old')).length;
    expect((await a.post('/api/v1/sys/config/update', { action: 'audit_log', audit_log: { audit_reserve: 0 } })).body.code).toBe(0);
    expect(await purgeAuditLogs(server.app.ctx, now)).toBe(0);
    expect(await oldCount()).toBe(25);
    expect((await a.post('/api/v1/sys/config/update', { action: 'audit_log', audit_log: { audit_reserve: 30 } })).body.code).toBe(0);
    let checks = 0;
    expect(await purgeAuditLogs(server.app.ctx, now, { batch: 10, pauseMs: 0, stopped: () => ++checks > 1 })).toBe(20);
    expect(await oldCount()).toBe(5);
    expect((await housekeep(server.app.ctx, now)).audits).toBe(5);
    expect(await oldCount()).toBe(0);
    // Recent rows stay.
    expect(await count()).toBeGreaterThan(10);
    expect((await a.post('/api/v1/sys/config/update', { action: 'audit_log', audit_log: { audit_reserve: -1 } })).body.code).toBe(51);
  });

  it('never fails a write because its audit row could not be written, and says so in the log', async () => {
    const raw = server.app.ctx.db.schema;
    await raw.alterTable('audit_logs').renameTo('audit_logs_away').execute();
    try {
      const r = await a.post('/api/v1/corp/create', { name: 'Unaudited', code: 'Unaudited' });
      expect(r.body.code).toBe(0);
      expect(await db().selectFrom('corps').select('id').where('id', '=', r.body.data.id).executeTakeFirst()).toBeTruthy();
    } finally {
      await raw.alterTable('audit_logs_away').renameTo('audit_logs').execute();
    }
    expect(server.logs.some((l) => l.includes('AUDIT LOG WRITE FAILED') && l.includes('/api/v1/corp/create'))).toBe(true);
  });

  it('classifies every POST: reads are named, everything else is recorded', () => {
    const quiet = server.app.consoleRoutes.filter((r) => r.method === 'POST' && !r.public && !r.audit).map((r) => r.url);
    // Reads by their verb, and the two POSTs that read or store nothing without one.
    const reads = /\/(page|list|detail|menu|second|minute)$/;
    expect(quiet.filter((u) => !reads.test(u)).sort()).toEqual(['/api/v1/app/create/key', '/api/v1/model/permissions']);
    const kinds = (re: RegExp) => [...new Set(server.app.consoleRoutes.filter((r) => r.method === 'POST' && re.test(r.url)).map((r) => r.audit))];
    expect(kinds(/\/export$/)).toEqual(['export']);
    expect(kinds(/\/(copy\/field|reveal)$/)).toEqual(['reveal']);
    expect(kinds(/\/(create|update|delete|change\/status|batch\/operate|recharge)$/)).toEqual(['write']);
  });
});
