// Picker search (issue 15 part 4) over HTTP: keyword on name/account/email/id, ids resolving chosen
// values, the row limit, and the caller's scope (a reseller its own users and their apps, a user its apps).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PICKER_LIMIT } from '@fastgate/core/entities/picker';
import { admin, dialects, signedIn, startServer, type Client, type TestServer } from './helpers';

type Me = Client & { userId: number };

describe.each(dialects)('pickers on %s', (dialect) => {
  let server: TestServer;
  let adm: Client;
  let r1: Me;
  let r2: Me;
  let alice: Me;
  let bob: Me;
  let carol: Me;
  let aliceApp: number;
  let carolApp: number;

  const accounts = async (c: Client, q: Record<string, string | number>) => {
    const r = await c.get('/api/v1/picker/account', q);
    expect(r.body.code, r.body.message).toBe(0);
    return (r.body.data.items as { user_id: number; account: string; name: string; email: string }[]).map((i) => i.user_id);
  };
  const apps = async (c: Client, q: Record<string, string | number>) => {
    const r = await c.get('/api/v1/picker/app', q);
    expect(r.body.code, r.body.message).toBe(0);
    return (r.body.data.items as { app_id: number; name: string }[]).map((i) => i.app_id);
  };

  beforeAll(async () => {
    server = await startServer(dialect);
    adm = await admin(server);
    r1 = await signedIn(server, 'reseller', 'pick-res-one');
    r2 = await signedIn(server, 'reseller', 'pick-res-two');
    alice = await signedIn(server, 'user', 'alice.pick@example.com', { rid: r1.userId });
    bob = await signedIn(server, 'user', 'bob.pick@example.com', { rid: r1.userId });
    carol = await signedIn(server, 'user', 'carol.pick@example.com', { rid: r2.userId });
    aliceApp = (await alice.post('/api/v1/app/create', { name: 'Alice Orchard' })).body.data.app_id;
    await bob.post('/api/v1/app/create', { name: 'Bob Orchard' });
    carolApp = (await carol.post('/api/v1/app/create', { name: 'Carol Orchard' })).body.data.app_id;
  }, 60_000);
  afterAll(() => server?.close());

  it('finds accounts by part of the account or email, case-insensitively, and by exact user_id', async () => {
    expect(await accounts(adm, { keyword: 'ALICE.P' })).toEqual([alice.userId]);
    expect(await accounts(adm, { keyword: String(bob.userId), role: 'user' })).toEqual([bob.userId]);
    expect(await accounts(adm, { keyword: 'pick-res', role: 'reseller' })).toEqual([r2.userId, r1.userId]);
    expect(await accounts(adm, { keyword: 'pick@', role: 'user', rid: r1.userId })).toEqual([bob.userId, alice.userId]);
    // "%" and "_" are text, not patterns.
    expect(await accounts(adm, { keyword: '%' })).toEqual([]);
  });

  it("keeps a reseller to itself and its own users, whatever it asks", async () => {
    expect(await accounts(r1, { keyword: 'pick', role: 'user' })).toEqual([bob.userId, alice.userId]);
    expect(await accounts(r1, { keyword: 'carol' })).toEqual([]);
    expect(await accounts(r1, { ids: `${alice.userId},${carol.userId},${r2.userId}` })).toEqual([alice.userId]);
    expect(await accounts(r1, { rid: r2.userId })).toEqual([]);
    expect(await accounts(r2, { keyword: 'pick' })).toEqual([carol.userId, r2.userId]);
  });

  it('is refused to users; apps stay within the caller scope', async () => {
    expect((await alice.get('/api/v1/picker/account', { keyword: 'a' })).body.code).toBe(401);
    expect(await apps(alice, { keyword: 'orchard' })).toEqual([aliceApp]);
    expect(await apps(alice, { ids: `${aliceApp},${carolApp}` })).toEqual([aliceApp]);
    expect(await apps(r1, { keyword: 'orchard' })).toHaveLength(2);
    expect(await apps(r1, { keyword: 'carol' })).toEqual([]);
    expect(await apps(r2, { keyword: String(carolApp) })).toContain(carolApp);
    expect(await apps(adm, { keyword: 'orchard', user_id: carol.userId })).toEqual([carolApp]);
  });

  it(`answers at most ${PICKER_LIMIT} rows and refuses bad input with a field error`, async () => {
    for (let i = 0; i < PICKER_LIMIT + 3; i++) await signedIn(server, 'user', `bulk${i}.pick@example.com`, { rid: r1.userId });
    expect(await accounts(adm, { keyword: 'bulk' })).toHaveLength(PICKER_LIMIT);
    const bad = await adm.get('/api/v1/picker/account', { ids: '1,abc' });
    expect(bad.status).toBe(200);
    expect(bad.body.code).not.toBe(0);
    expect(bad.body.message).toContain('ids');
    expect((await adm.get('/api/v1/picker/app', { user_id: 'x' })).body.code).not.toBe(0);
  });
});
