// Browser security headers on the console and its API (issue 11, finding 6), and session tokens only
// from the Authorization header (finding 9).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, Client, startServer, type TestServer } from './helpers';

describe('security headers and where a session token may come from', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sends CSP, no framing, nosniff and a referrer policy on the console, its API and its 404s', async () => {
    for (const path of ['/api/v1/open/sys/config', '/login', '/api/v1/no/such/route']) {
      const res = await fetch(server.url + path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      // Plain HTTP: no HSTS (it would mean nothing, and pin a dev box to HTTPS).
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('adds HSTS when the request came over TLS through a trusted proxy', async () => {
    const res = await fetch(`${server.url}/api/v1/open/sys/config`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('keeps the gateway free of browser headers (machine clients on the hot path)', async () => {
    const res = await fetch(`${server.url}/v1/models`);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-security-policy')).toBeNull();
  });

  it('sets the XSRF cookie on what browsers call, and never on the gateway', async () => {
    for (const path of ['/health', '/login', '/api/v1/open/sys/config', '/api/v1/no/such/route', '/no/such/page']) {
      const res = await fetch(server.url + path);
      expect(res.headers.get('set-cookie'), path).toMatch(/^XSRF-TOKEN=[\w-]{32}; Path=\/; SameSite=Strict$/);
    }
    // A browser that already holds one keeps it.
    const kept = await fetch(`${server.url}/health`, { headers: { cookie: 'XSRF-TOKEN=abc' } });
    expect(kept.headers.get('set-cookie')).toBeNull();
    for (const path of ['/v1/models', '/v1/no/such/route', '/v1beta/models', '/v1/chat/completions']) {
      const res = await fetch(server.url + path, path.endsWith('completions') ? { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-nope' }, body: '{}' } : {});
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.headers.get('set-cookie'), path).toBeNull();
    }
  });

  it('takes the session token from the Authorization header only, never the URL', async () => {
    const a = await admin(server);
    expect((await a.get('/api/v1/user/info')).status).toBe(200);
    const inUrl = await fetch(`${server.url}/api/v1/user/info?token=${encodeURIComponent(a.token)}`);
    expect(inUrl.status).toBe(401);
    expect(await inUrl.json()).toMatchObject({ code: 401 });
    const anon = new Client(server.url);
    const post = await anon.raw('POST', `/api/v1/corp/page?token=${encodeURIComponent(a.token)}`, '{}');
    expect(post.status).toBe(401);
  });
});
