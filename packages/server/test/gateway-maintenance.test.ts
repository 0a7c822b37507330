// Maintenance mode and the upstream HTTP settings (docs/SPEC.md §3.15.1, §3.15.2), set through the console
// as an admin would: every gateway call answered 503 in its own protocol with nothing held or charged;
// upstream requests through a configured proxy; the timeout cap.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dialects, expectNoDrift } from './helpers';
import { resetUpstreams, settled, world, type World } from './gateway-fixtures';

/** A tiny forward proxy: CONNECT tunnels and absolute-URI requests, counted. */
async function startProxy(): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const upstream = httpRequest({ host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  // Tunnels are not the server's connections any more: closed by hand.
  const tunnels = new Set<{ destroy(): void }>();
  server.on('connect', (req, socket, head) => {
    seen.push(`CONNECT ${req.url}`);
    tunnels.add(socket);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      for (const t of tunnels) t.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

describe.each(dialects)('maintenance mode and upstream HTTP on %s', (dialect) => {
  let w: World;
  const setSection = async (action: string, value: Record<string, unknown>) => {
    const r = await w.admin.post('/api/v1/sys/config/update', { action, [action]: value });
    expect(r.body, r.body.message).toMatchObject({ code: 0 });
    await settled(w);
  };
  const callLogs = async () => {
    await w.flush();
    return Number((await w.server.app.ctx.db.selectFrom('call_logs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  };

  beforeAll(async () => {
    w = await world(dialect);
    const corp = (await w.admin.post('/api/v1/corp/create', { name: 'Anthropic', code: 'Anthropic', is_public: true })).body.data.id as string;
    const claude = await w.admin.post('/api/v1/model/create', { corp, name: 'claude-test', model: 'claude-test', type: 1, is_public: true, is_enable_model_agent: true, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 } });
    await w.admin.post('/api/v1/model/agent/create', { corp, name: 'claude', base_url: w.mock.url, models: [claude.body.data.id], key: 'sk-mock-claude-key', lb_strategy: 1 });
    const google = (await w.admin.post('/api/v1/corp/create', { name: 'Google', code: 'Google', is_public: true })).body.data.id as string;
    const gemini = await w.admin.post('/api/v1/model/create', { corp: google, name: 'gemini-test', model: 'gemini-test', type: 1, is_public: true, is_enable_model_agent: true, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 } });
    await w.admin.post('/api/v1/model/agent/create', { corp: google, name: 'gemini', base_url: w.mock.url, models: [gemini.body.data.id], key: 'sk-mock-google-key' });
    await settled(w);
  });
  afterAll(() => w?.close());
  beforeEach(() => resetUpstreams(w));

  it('answers every protocol 503 with the message while on, charges nothing, and the console stays up', async () => {
    await setSection('service_unavailable', { open: 'true', message: 'Back at 10:00 after the upgrade.' });
    const quota = await w.quotaOf(w.user.userId);
    const logs = await callLogs();

    const openai = await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(openai).toBeInstanceOf(Error);
    expect(openai).toMatchObject({ status: 503, error: { message: 'Back at 10:00 after the upgrade.', type: 'server_error', code: 'service_unavailable' } });

    const anthropic = new Anthropic({ apiKey: w.key, baseURL: w.server.url, maxRetries: 0 });
    const claude = await anthropic.messages.create({ model: 'claude-test', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(claude).toMatchObject({ status: 503, error: { type: 'error', error: { type: 'api_error', message: 'Back at 10:00 after the upgrade.' } } });

    const gemini = await fetch(`${w.server.url}/v1beta/models/gemini-test:generateContent`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-goog-api-key': w.key }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }) });
    expect(gemini.status).toBe(503);
    expect(await gemini.json()).toMatchObject({ error: { code: 503, message: 'Back at 10:00 after the upgrade.', status: 'UNAVAILABLE' } });
    const ai = new GoogleGenAI({ apiKey: w.key, httpOptions: { baseUrl: w.server.url } });
    await expect(ai.models.generateContent({ model: 'gemini-test', contents: 'hi' })).rejects.toThrow(/503|upgrade/);

    // Unknown keys are refused the same way: nothing reaches admission.
    const stranger = await fetch(`${w.server.url}/v1/models`, { headers: { authorization: 'Bearer sk-FastAPInotakey' } });
    expect(stranger.status).toBe(503);

    expect(w.mock.requests).toHaveLength(0);
    expect(w.server.app.gateway.ledger.pending.reservations).toBe(0);
    expect(await w.quotaOf(w.user.userId)).toBe(quota);
    expect(await callLogs()).toBe(logs);
    // The console answers (the admin turns it off through it).
    expect((await w.user.post('/api/v1/app/page', {})).body.code).toBe(0);
    const off = await w.admin.post('/api/v1/sys/config/change/status', { action: 'service_unavailable', open: false });
    expect(off.body.code).toBe(0);
    await settled(w);
    const ok = await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
    expect(ok.choices[0]!.message.content).toContain('You said: hi');
  });

  it('lets whitelisted addresses through and has a standard message when none is set', async () => {
    await setSection('service_unavailable', { open: true, message: '', ip_whitelist: ['127.0.0.1'] });
    const ok = await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
    expect(ok.choices[0]!.message.content).toContain('hi');
    await setSection('service_unavailable', { ip_whitelist: ['10.9.8.7'] });
    const refused = await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 503, error: { message: 'The service is under maintenance. Please try again later.' } });
    expect((await w.admin.post('/api/v1/sys/config/reset', { action: 'service_unavailable' })).body.code).toBe(0);
    await settled(w);
  });

  it('sends upstream requests through the configured proxy, and direct again once it is cleared', async () => {
    const proxy = await startProxy();
    try {
      await setSection('http', { proxy_url: proxy.url });
      const r = await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'via proxy' }] });
      expect(r.choices[0]!.message.content).toContain('via proxy');
      const mockHost = new URL(w.mock.url).host;
      expect(proxy.seen.length).toBeGreaterThanOrEqual(1);
      expect(proxy.seen.every((line) => line.includes(mockHost))).toBe(true);
      expect(w.mock.requests).toHaveLength(1);

      await setSection('http', { proxy_url: '' });
      const before = proxy.seen.length;
      await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'direct' }] });
      expect(proxy.seen.length).toBe(before);
      expect(w.mock.requests).toHaveLength(2);
    } finally {
      await proxy.close();
    }
  });

  it('cuts a hanging upstream at http.timeout even when the base timeouts are longer', async () => {
    await setSection('base', { err_retry: 0, short_timeout: 300 });
    await setSection('http', { timeout: '1' });
    const started = Date.now();
    const err = await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: '[[mock:timeout]] hang' }] }).catch((e: unknown) => e);
    const took = Date.now() - started;
    // The gateway's upstream-timeout answer (gateway/upstream.ts), as for base.short_timeout.
    expect(err).toMatchObject({ status: 502, message: expect.stringMatching(/did not answer in time/) });
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(5000);
    await w.flush();
    const log = await w.server.app.ctx.db.selectFrom('call_logs').selectAll().orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(log.err_msg).toMatch(/did not answer in time/);
    for (const s of ['http', 'base']) await w.admin.post('/api/v1/sys/config/reset', { action: s });
  });

  it('ends with every balance adding up to its records (ledger verifier)', () => expectNoDrift(w.server));
});
