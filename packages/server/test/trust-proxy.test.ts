// TRUST_PROXY decides who may name the client's address in X-Forwarded-For (config.ts). The test
// client connects from 127.0.0.1: with the default (loopback, private and link-local proxies trusted)
// it plays a local nginx; started with a setting that does not trust 127.0.0.1 it plays a client from
// the internet, whose X-Forwarded-For must not get it past an app key's IP whitelist or blacklist, nor
// into the sign-in record.
import { afterAll, describe, expect, it } from 'vitest';
import { readConfig } from '../src/config';
import { signedIn, startServer, type TestServer } from './helpers';

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** A server with TRUST_PROXY (unset: the default), a user and an app key whose lists the test sets. */
async function setup(trustProxy?: string) {
  const server = await startServer('sqlite', trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy });
  servers.push(server);
  const user = await signedIn(server, 'user', `proxy-${Math.random().toString(36).slice(2, 8)}@example.com`);
  const app = await user.post('/api/v1/app/create', { name: 'Proxy test', is_create_key: true });
  expect(app.body.code).toBe(0);
  const key = app.body.data.key as string;
  const id = (await server.app.ctx.db.selectFrom('app_keys').select('id').where('app_id', '=', app.body.data.app_id).executeTakeFirstOrThrow()).id;
  // The gateway reads the new app and key now rather than when their change events arrive.
  await server.app.gateway.snapshot.reload('apps', 'all');
  return {
    server,
    user,
    /** Sets the key's lists and waits until the gateway's snapshot has them. */
    async lists(ip_whitelist: string, ip_blacklist = '') {
      expect((await user.post('/api/v1/app/key/config', { id, ip_whitelist, ip_blacklist })).body.code).toBe(0);
      await server.app.gateway.snapshot.reload('app_keys', [id]);
    },
    /** Signs the user in claiming `forwarded` as the client; the sign-in address recorded. */
    async loginIp(forwarded: string) {
      const { db } = server.app.ctx;
      await db.updateTable('users').set({ login_ip: '' }).where('user_id', '=', user.userId).execute();
      const { account } = await db.selectFrom('users').select('account').where('user_id', '=', user.userId).executeTakeFirstOrThrow();
      const res = await fetch(`${server.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwarded },
        body: JSON.stringify({ account, password: 'Passw0rd!', channel: 'user', method: 'account' }),
      });
      expect(((await res.json()) as { code: number }).code).toBe(0);
      return (await db.selectFrom('users').select('login_ip').where('user_id', '=', user.userId).executeTakeFirstOrThrow()).login_ip;
    },
    /** GET /v1/models with the key, claiming `forwarded` as the client; the HTTP status. */
    async call(forwarded?: string) {
      const res = await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${key}`, ...(forwarded ? { 'x-forwarded-for': forwarded } : {}) } });
      await res.arrayBuffer();
      return res.status;
    },
  };
}

describe('TRUST_PROXY', () => {
  it('reads true, false, a hop count and address lists, and refuses anything else', () => {
    const read = (v?: string) => readConfig({ TRUST_PROXY: v }).trustProxy;
    expect(read()).toBe('loopback,linklocal,uniquelocal');
    expect(read('true')).toBe(true);
    expect(read('false')).toBe(false);
    expect(read('2')).toBe(2);
    expect(read(' 10.0.0.5, 192.168.0.0/16 ,loopback,fd00::/8,10.1.0.0/255.255.0.0')).toBe('10.0.0.5,192.168.0.0/16,loopback,fd00::/8,10.1.0.0/255.255.0.0');
    for (const bad of ['nginx', '10.0.0.0/33', '10.0.0.1/8/8', 'yes', ',']) expect(() => read(bad)).toThrow(/TRUST_PROXY/);
  });

  it('by default trusts a proxy on this host: the forwarded address is the client, for whitelists and blacklists', async () => {
    const s = await setup();
    await s.lists('203.0.113.7');
    expect(await s.call('203.0.113.7')).toBe(200);
    expect(await s.call('198.51.100.1')).toBe(403);
    // The proxy's own address admits no one but itself.
    expect(await s.call()).toBe(403);
    await s.lists('', '203.0.113.7');
    expect(await s.call('203.0.113.7')).toBe(403);
    expect(await s.call('198.51.100.1')).toBe(200);
    // A client that forged a header ahead of nginx's own entry: the last untrusted hop is the client.
    expect(await s.call('198.51.100.1, 203.0.113.7')).toBe(403);
    expect(await s.call('203.0.113.7, 198.51.100.1')).toBe(200);
  });

  for (const setting of ['false', '10.0.0.0/8,192.168.1.1']) {
    it(`with TRUST_PROXY=${setting}, a direct client cannot claim another address`, async () => {
      const s = await setup(setting);
      await s.lists('203.0.113.7');
      expect(await s.call('203.0.113.7')).toBe(403);
      await s.lists('127.0.0.1');
      expect(await s.call('203.0.113.7')).toBe(200);
      await s.lists('', '127.0.0.1');
      expect(await s.call('203.0.113.7')).toBe(403);
      // Nor into the sign-in record.
      expect(await s.loginIp('203.0.113.7')).toBe('127.0.0.1');
    });
  }

  it('with TRUST_PROXY=127.0.0.1, the forwarded address is the client and the whitelist applies to it', async () => {
    const s = await setup('127.0.0.1');
    await s.lists('203.0.113.7');
    expect(await s.call('203.0.113.7')).toBe(200);
    expect(await s.call('198.51.100.1')).toBe(403);
    expect(await s.call()).toBe(403);
    expect(await s.loginIp('203.0.113.7')).toBe('203.0.113.7');
  });

  it('with a hop count, the nearest hops are proxies and the next one is the client', async () => {
    const s = await setup('1');
    await s.lists('198.51.100.1');
    expect(await s.call('203.0.113.7, 198.51.100.1')).toBe(200);
    expect(await s.call('198.51.100.1, 203.0.113.7')).toBe(403);
  });
});
