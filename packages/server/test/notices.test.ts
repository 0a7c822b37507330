// Quota notices through a real SMTP server: each of the four mails once per crossing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNotices } from '../src/jobs/notices';
import { setSysSection } from '../src/settings/sys-config';
import { admin, dialects, signedIn, startServer, startSmtp, type Client, type TestServer } from './helpers';

const DAY = 86_400_000;

describe.each(dialects)('quota notices on %s', (dialect) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let a: Client;

  beforeAll(async () => {
    server = await startServer(dialect);
    smtp = await startSmtp();
    await setSysSection(server.app.ctx.db, 'email', { open: true, host: '127.0.0.1', port: smtp.port, user_name: '', password: '', from_name: 'FastGate' });
    a = await admin(server);
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  const set = (userId: number, values: Record<string, unknown>) => server.app.ctx.db.updateTable('users').set(values).where('user_id', '=', userId).execute();
  const mailsTo = (to: string) => smtp.mails.filter((m) => m.to === to);

  it('warns below the threshold, then on exhaustion, each once; a recharge re-arms them', async () => {
    const u = await signedIn(server, 'user', 'low@x.io');
    expect((await u.post('/api/v1/dashboard/quota/warning', { quota_warning: true, warning_threshold: 2, expire_warning_threshold: 0 })).body.code).toBe(0);
    await a.post('/api/v1/admin/user/recharge', { user_id: u.userId, quota: 5 * 500_000 });
    const now = Date.now();
    await runNotices(server.app.ctx, now);
    expect(mailsTo('low@x.io')).toHaveLength(0);

    // Usage (the ledger's way) drops the balance below $2.
    await set(u.userId, { quota: 500_000, used_quota: 4 * 500_000 });
    await runNotices(server.app.ctx, now);
    await runNotices(server.app.ctx, now);
    expect(mailsTo('low@x.io')).toHaveLength(1);
    expect(mailsTo('low@x.io')[0]!.text).toContain('$1');

    await set(u.userId, { quota: 0, used_quota: 5 * 500_000 });
    await runNotices(server.app.ctx, now);
    await runNotices(server.app.ctx, now);
    expect(mailsTo('low@x.io')).toHaveLength(2);
    expect(mailsTo('low@x.io')[1]!.text).toMatch(/用尽|used up/);

    // A recharge clears both flags: the next crossing notifies again.
    await a.post('/api/v1/admin/user/recharge', { user_id: u.userId, quota: 10 * 500_000 });
    await runNotices(server.app.ctx, now);
    expect(mailsTo('low@x.io')).toHaveLength(2);
    await set(u.userId, { quota: 100 });
    await runNotices(server.app.ctx, now);
    expect(mailsTo('low@x.io')).toHaveLength(3);
  });

  it('follows the system config: its default threshold for users without one, and a switch per kind (docs/SPEC.md §3.15.3)', async () => {
    const u = await signedIn(server, 'user', 'sys-default@x.io');
    await u.post('/api/v1/dashboard/quota/warning', { quota_warning: true, warning_threshold: 0, expire_warning_threshold: 0 });
    await a.post('/api/v1/admin/user/recharge', { user_id: u.userId, quota: 5 * 500_000 });
    await set(u.userId, { quota: 500_000, used_quota: 4 * 500_000 });
    const now = Date.now();
    await runNotices(server.app.ctx, now);
    expect(mailsTo('sys-default@x.io')).toHaveLength(0);
    // $3 as the original console posts it: dollars × 500000, as text.
    expect((await a.post('/api/v1/sys/config/update', { action: 'quota', quota: { threshold: '1500000' } })).body.code).toBe(0);
    await runNotices(server.app.ctx, now);
    expect(mailsTo('sys-default@x.io')).toHaveLength(1);
    expect(mailsTo('sys-default@x.io')[0]!.text).toContain('$3');
    // Exhaustion notices switched off: none, until switched on again.
    expect((await a.post('/api/v1/sys/config/update', { action: 'quota', quota: { exhausted_notice: 'false' } })).body.code).toBe(0);
    await set(u.userId, { quota: 0, used_quota: 5 * 500_000 });
    await runNotices(server.app.ctx, now);
    expect(mailsTo('sys-default@x.io')).toHaveLength(1);
    expect((await a.post('/api/v1/sys/config/reset', { action: 'quota' })).body.code).toBe(0);
    await runNotices(server.app.ctx, now);
    expect(mailsTo('sys-default@x.io')).toHaveLength(2);
    expect(mailsTo('sys-default@x.io')[1]!.text).toMatch(/用尽|used up/);
  });

  it('runs on the quota_task schedule set in the console, and not while it is off', async () => {
    const u = await signedIn(server, 'user', 'scheduled@x.io');
    await u.post('/api/v1/dashboard/quota/warning', { quota_warning: true, warning_threshold: 2, expire_warning_threshold: 0 });
    await a.post('/api/v1/admin/user/recharge', { user_id: u.userId, quota: 5 * 500_000 });
    await set(u.userId, { quota: 500_000, used_quota: 4 * 500_000 });
    // Every second (the default is every 10 minutes, so only the new schedule can send it in time).
    expect((await a.post('/api/v1/sys/config/update', { action: 'quota_task', quota_task: { cron: '* * * * * *' } })).body.code).toBe(0);
    await expect.poll(() => mailsTo('scheduled@x.io').length, { timeout: 5000 }).toBe(1);
    expect((await a.post('/api/v1/sys/config/change/status', { action: 'quota_task', open: 'false' })).body.code).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    await set(u.userId, { quota: 0, used_quota: 5 * 500_000 });
    await new Promise((r) => setTimeout(r, 2200));
    expect(mailsTo('scheduled@x.io')).toHaveLength(1);
    expect((await a.post('/api/v1/sys/config/reset', { action: 'quota_task' })).body.code).toBe(0);
  });

  it('warns before expiry and on expiry, each once', async () => {
    const u = await signedIn(server, 'user', 'exp@x.io');
    await u.post('/api/v1/dashboard/quota/warning', { quota_warning: true, warning_threshold: 0, expire_warning_threshold: 3 });
    const now = Date.now();
    await set(u.userId, { quota: 10 * 500_000, quota_expires_at: now + 10 * DAY });
    await runNotices(server.app.ctx, now);
    expect(mailsTo('exp@x.io')).toHaveLength(0);

    await runNotices(server.app.ctx, now + 8 * DAY);
    await runNotices(server.app.ctx, now + 8 * DAY + 60_000);
    expect(mailsTo('exp@x.io')).toHaveLength(1);
    expect(mailsTo('exp@x.io')[0]!.text).toMatch(/过期|expires/);

    await runNotices(server.app.ctx, now + 11 * DAY);
    await runNotices(server.app.ctx, now + 12 * DAY);
    expect(mailsTo('exp@x.io')).toHaveLength(2);
    expect(mailsTo('exp@x.io')[1]!.text).toMatch(/已于|expired/);
  });

  it('never mails disabled accounts, accounts without email, or untouched new accounts', async () => {
    const quiet = await signedIn(server, 'user', 'quiet@x.io');
    const off = await signedIn(server, 'user', 'off@x.io');
    await set(off.userId, { status: 2, quota: 0, used_quota: 10 });
    const res = await runNotices(server.app.ctx, Date.now());
    expect(res.sent).toBe(0);
    expect(mailsTo('quiet@x.io')).toHaveLength(0);
    expect(mailsTo('off@x.io')).toHaveLength(0);
    expect(quiet.userId).toBeGreaterThan(0);
  });
});
