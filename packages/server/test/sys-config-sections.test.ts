// The original console's system-config sections (issue 15 part 9; docs/SPEC.md §3.15): read with the rest,
// written with its encodings (numbers and booleans as text, "" for an empty number or list), bad
// values refused with the field named, never a 500.
import { APP_KEY_PREFIX } from '@fastgate/core/entities/app-key';
import { SYS_CONFIG_DEFAULTS } from '@fastgate/core/sys-config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, dialects, startServer, type Client, type TestServer } from './helpers';

const ORIGINAL_SECTIONS = ['core', 'http', 'quota', 'notice', 'quota_task', 'service_unavailable', 'debug'] as const;

describe.each(dialects)('the original console system-config sections on %s', (dialect) => {
  let server: TestServer;
  let a: Client;
  const detail = async () => (await a.get('/api/v1/sys/config/detail')).body.data as Record<string, Record<string, unknown>>;
  const update = (action: string, value: unknown) => a.post('/api/v1/sys/config/update', { action, [action]: value });

  beforeAll(async () => {
    server = await startServer(dialect);
    a = await admin(server);
  });
  afterAll(() => server?.close());

  it('reads the seven sections with their defaults', async () => {
    const d = await detail();
    for (const s of ORIGINAL_SECTIONS) expect(d[s], s).toEqual(SYS_CONFIG_DEFAULTS[s]);
    expect(d.core).toEqual({ secret_key_prefix: APP_KEY_PREFIX, error_prefix: 'fastapi' });
    expect(d.service_unavailable).toEqual({ open: false, ip_whitelist: [], message: '' });
  });

  it('takes each section as the original console posts it and answers it back decoded', async () => {
    // The original posts its whole form with `action` naming the section; every number and switch as text.
    const writes: Record<string, [unknown, unknown]> = {
      core: [{ secret_key_prefix: APP_KEY_PREFIX, error_prefix: 'gw' }, { secret_key_prefix: APP_KEY_PREFIX, error_prefix: 'gw' }],
      http: [{ open: 'true', timeout: '30', proxy_url: 'http://127.0.0.1:7890' }, { open: true, timeout: 30, proxy_url: 'http://127.0.0.1:7890' }],
      // threshold: $2.5 × 500000 as the original computes it; "" leaves a number as stored.
      quota: [
        { warning: 'true', threshold: '1250000', expired_warning: 'false', expired_threshold: '3', exhausted_notice: true, expired_notice: 'false', expired_clear: 'false', expired_clear_defer: '' },
        { warning: true, threshold: 1_250_000, expired_warning: false, expired_threshold: 3, exhausted_notice: true, expired_notice: false, expired_clear: false, expired_clear_defer: 0 },
      ],
      notice: [{ open: 'false', cron: '0 */5 * * * ?', lock_minutes: '15' }, { open: false, cron: '0 */5 * * * ?', lock_minutes: 15 }],
      quota_task: [{ open: 'true', cron: '0 0/30 * * * ?', lock_minutes: '20' }, { open: true, cron: '0 0/30 * * * ?', lock_minutes: 20 }],
      service_unavailable: [{ open: 'false', ip_whitelist: ['10.0.0.1', '192.168.1.0/24'], message: 'Upgrading' }, { open: false, ip_whitelist: ['10.0.0.1', '192.168.1.0/24'], message: 'Upgrading' }],
      debug: [{ open: 'false' }, { open: false }],
    };
    for (const [section, [sent, read]] of Object.entries(writes)) {
      const r = await update(section, sent);
      expect(r.body, `${section}: ${r.body.message}`).toMatchObject({ code: 0 });
      expect((await detail())[section], section).toEqual(read);
    }
    // "" is the empty list.
    expect((await update('service_unavailable', { ip_whitelist: '' })).body.code).toBe(0);
    expect((await detail()).service_unavailable.ip_whitelist).toEqual([]);
    // The switch endpoint takes text too.
    expect((await a.post('/api/v1/sys/config/change/status', { action: 'debug', open: 'true' })).body.code).toBe(0);
    expect((await detail()).debug).toEqual({ open: true });
    // The debug switch sets the server's log level (settings/debug-log.ts), and back again when off.
    await expect.poll(() => server.app.log.level).toBe('debug');
    expect((await a.post('/api/v1/sys/config/change/status', { action: 'debug', open: false })).body.code).toBe(0);
    await expect.poll(() => server.app.log.level).toBe(server.app.ctx.config.logLevel);
    // Sections of ours take the same encodings (numbers as text, "" for a list).
    expect((await update('base', { err_retry: '2', short_timeout: '120' })).body.code).toBe(0);
    expect((await update('sites', { reserved_hosts: '', upload_max_files: '5' })).body.code).toBe(0);
    const d = await detail();
    expect(d.base).toMatchObject({ err_retry: 2, short_timeout: 120 });
    expect(d.sites).toMatchObject({ reserved_hosts: [], upload_max_files: 5 });
    // The original's fields of shared sections round-trip, so its forms (which require them) can save.
    expect((await update('email', { interval: '5000', host: 'smtp.example.com' })).body.code).toBe(0);
    expect((await update('log', { status: [1, '-1'], cron: '0 0 3 * * ?', image_reserve: '30' })).body.code).toBe(0);
    expect((await update('base', { model_key_err_disable: '100000', model_agent_err_disable: '5' })).body.code).toBe(0);
    const o = await detail();
    expect(o.email).toMatchObject({ interval: 5000, host: 'smtp.example.com' });
    expect(o.log).toMatchObject({ status: [1, -1], cron: '0 0 3 * * ?', image_reserve: 30, audio_reserve: 90 });
    expect(o.base).toMatchObject({ model_key_err_disable: 100_000, model_agent_err_disable: 5, model_agent_key_err_disable: 100_000 });
    for (const section of [...ORIGINAL_SECTIONS, 'base', 'sites', 'email', 'log']) expect((await a.post('/api/v1/sys/config/reset', { action: section })).body.code).toBe(0);
  });

  it('refuses bad values with the field and a message, not a 500', async () => {
    const bad: [string, Record<string, unknown>, string, RegExp][] = [
      ['http', { proxy_url: 'socks5://127.0.0.1:1080' }, 'http.proxy_url', /http:\/\/ or https:\/\//],
      ['http', { proxy_url: 'http://proxy.example.com/path?x=1' }, 'http.proxy_url', /proxy/i],
      ['http', { timeout: 'soon' }, 'http.timeout', /.+/],
      ['http', { timeout: '-1' }, 'http.timeout', /.+/],
      ['core', { secret_key_prefix: 'sk-other' }, 'core.secret_key_prefix', /sk-FastAPI/],
      ['quota', { expired_threshold: '1.5' }, 'quota.expired_threshold', /.+/],
      ['quota', { warning: 'yes' }, 'quota.warning', /.+/],
      ['service_unavailable', { ip_whitelist: ['not-an-ip'] }, 'service_unavailable.ip_whitelist', /not-an-ip/],
      ['quota_task', { cron: '' }, 'quota_task.cron', /.+/],
    ];
    a.lang = 'en-US';
    for (const [section, value, field, message] of bad) {
      const r = await a.post('/api/v1/sys/config/update', { action: section, [section]: value });
      expect(r.status, JSON.stringify(value)).toBe(200);
      expect(r.body.code, JSON.stringify(value)).not.toBe(0);
      expect(r.body.message, JSON.stringify(value)).toContain(field);
      expect(r.body.message).toMatch(message);
    }
    expect((await detail()).http).toEqual(SYS_CONFIG_DEFAULTS.http);
  });
});
