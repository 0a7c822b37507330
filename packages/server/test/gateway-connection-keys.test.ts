// Several keys on one kept-alive connection (a proxy in front carries many clients' calls on one): each
// call is admitted under the key it presents, whatever the connection presented before (admit.ts keeps
// the last key's hash per connection).
import { Client as UndiciClient } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled, world, type World } from './gateway-fixtures';

describe('app keys on one connection', () => {
  let w: World;
  let conn: UndiciClient;
  beforeAll(async () => {
    w = await world('sqlite');
    conn = new UndiciClient(w.server.url, { pipelining: 1 });
  });
  afterAll(async () => {
    await conn?.close();
    await w?.close();
  });

  const chat = async (key: string, scheme = 'Bearer') => {
    const res = await conn.request({
      path: '/v1/chat/completions',
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `${scheme} ${key}` },
      body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const body = (await res.body.json()) as { error?: { code?: string } };
    return { status: res.statusCode, code: body.error?.code };
  };

  it('admits each call under its own key, and refuses a key disabled since its last call at once', async () => {
    const made = await w.user.post('/api/v1/app/key/batch/operate', { action: 'create', app_id: w.appId, n: 1, remark: 'second' });
    expect(made.body.code).toBe(0);
    const second = made.body.data.keys as string;
    // The same length as a real key, one letter off: must not pass for it.
    const forged = w.key.slice(0, -1) + (w.key.endsWith('a') ? 'b' : 'a');

    expect(await chat(w.key)).toEqual({ status: 200, code: undefined });
    expect(await chat(forged)).toEqual({ status: 401, code: 'invalid_api_key' });
    expect(await chat(w.key)).toEqual({ status: 200, code: undefined });
    expect(await chat(second)).toEqual({ status: 200, code: undefined });
    expect(await chat(`${w.key}x`)).toEqual({ status: 401, code: 'invalid_api_key' });
    // The scheme's letters in any case; another scheme is no key.
    expect(await chat(w.key, 'bEaReR')).toEqual({ status: 200, code: undefined });
    expect(await chat(w.key, 'Basic')).toEqual({ status: 401, code: 'missing_api_key' });

    await w.flush();
    const logs = await w.server.app.ctx.db.selectFrom('call_logs').innerJoin('app_keys', 'app_keys.id', 'call_logs.app_key_id').select(['app_keys.remark']).orderBy('call_logs.req_time').execute();
    expect(logs.map((l) => l.remark)).toEqual(['', '', 'second', '']);

    const [row] = (await w.user.post('/api/v1/key/page', { type: 1, remark: 'second' })).body.data.items as { id: string }[];
    expect((await w.user.post('/api/v1/app/key/batch/operate', { action: 'status', ids: [row!.id], value: 2 })).body.code).toBe(0);
    await settled(w);
    expect(await chat(second)).toEqual({ status: 403, code: 'api_key_disabled' });
  });
});
