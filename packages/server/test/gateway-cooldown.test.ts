// Upstream 429s are respected (issue 13): a key that says "wait" is not picked again until then, the
// client hears the upstream's retry-after, other keys carry the traffic meanwhile, and when every key
// is cooling the client gets 429 with the soonest retry-after. Retries onto a key already tried back
// off; the gateway's own quota refusals tell the OpenAI SDKs not to retry (x-should-retry: false).
// Real HTTP, the openai SDK against the mock provider, on SQLite and PostgreSQL.
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dialects } from './helpers';
import { resetUpstreams, settled, world, type World } from './gateway-fixtures';

const [A, B] = ['sk-cool-key-a', 'sk-cool-key-b'] as const;

/** A chat call through the SDK (no retries of its own): the answer, or the API error it raised. */
async function ask(w: World, content: string, stream = false): Promise<{ status: number; retryAfter: number | null; code: string | null }> {
  try {
    if (stream) {
      const s = await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content }], stream: true });
      for await (const _ of s);
    } else {
      await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content }] });
    }
    return { status: 200, retryAfter: null, code: null };
  } catch (err) {
    if (!(err instanceof OpenAI.APIError)) throw err;
    const h = err.headers?.get('retry-after');
    return { status: err.status ?? 0, retryAfter: h == null ? null : Number(h), code: (err.code as string | null) ?? null };
  }
}

describe.each(dialects)('upstream 429s and cool-downs on %s', (dialect) => {
  let w: World;
  const sent = (key: string) => w.mock.requests.filter((r) => r.key === key);

  beforeAll(async () => {
    w = await world(dialect, { agentKeys: [A, B] });
  });
  afterAll(() => w?.close());
  beforeEach(() => resetUpstreams(w));

  it('asks a lone key that answered 429 retry-after: 7 once, and tells the client to wait 7 s', async () => {
    // The case: B out of the way, A the only key.
    const bId = [...w.server.app.gateway.snapshot.keys.values()].find((k) => k.key === B)!.id;
    expect((await w.admin.post('/api/v1/key/change/status', { id: bId, type: 2, status: 2 })).body.code).toBe(0);
    await settled(w);
    w.mock.faults.add({ key: A, status: 429, error: 'Rate limit reached for requests', retry_after: 7 });
    expect(await ask(w, 'lone key')).toMatchObject({ status: 429, retryAfter: 7 });
    expect(sent(A)).toHaveLength(1);
    const again = await ask(w, 'lone key again', true);
    expect(again.status).toBe(429);
    expect(again.retryAfter).toBeGreaterThanOrEqual(6);
    expect(sent(A)).toHaveLength(1);
  });

  it('does not hammer a key that answered 429 retry-after: one request, then the other key until it has waited', async () => {
    w.mock.faults.add({ key: A, status: 429, error: 'Rate limit reached for requests', retry_after: 7 });
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await ask(w, `cool ${i}`, i % 2 === 1));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // Round robin gave A a first attempt once; after its 429 it is not asked again.
    expect(sent(A)).toHaveLength(1);
    expect(sent(B)).toHaveLength(6);

    // Now B says wait 3 s too: every key cools, the client gets 429 with the soonest retry-after.
    w.mock.faults.add({ key: B, status: 429, error: 'Rate limit reached for requests', retry_after: 3 });
    const both = await ask(w, 'both cooling');
    expect(both).toMatchObject({ status: 429, retryAfter: 3 });
    expect(sent(B)).toHaveLength(7);
    // Asked again at once: still 429, the soonest wait, and no upstream request at all.
    const again = await ask(w, 'still cooling', true);
    expect(again.status).toBe(429);
    expect(again.retryAfter).toBeGreaterThanOrEqual(2);
    expect(again.retryAfter).toBeLessThanOrEqual(3);
    expect(again.code).toBe('upstream_rate_limited');
    expect(w.mock.requests).toHaveLength(8);
  });

  it('honours retry-after-ms and x-ratelimit-reset-* as well as retry-after', async () => {
    // A says 1.5 s in milliseconds, B in OpenAI's reset headers (its request window is spent: 20 s).
    w.mock.faults.add({ key: A, status: 429, error: 'slow down', retry_after_ms: 1500 });
    w.mock.faults.add({ key: B, status: 429, error: 'slow down', headers: { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '20s', 'x-ratelimit-remaining-tokens': '9000', 'x-ratelimit-reset-tokens': '6m0s' } });
    const first = await ask(w, 'reset headers');
    expect(first).toMatchObject({ status: 429, retryAfter: 2 });
    expect(w.mock.requests).toHaveLength(2);
    // Past A's 1.5 s: A is asked again (and cools again), B still waits its 20 s.
    await new Promise((r) => setTimeout(r, 1600));
    const second = await ask(w, 'reset headers again');
    expect(second).toMatchObject({ status: 429, retryAfter: 2 });
    expect(sent(A)).toHaveLength(2);
    expect(sent(B)).toHaveLength(1);
    // With A cooling for a minute, the soonest is what is left of B's 20 s.
    w.mock.faults.clear();
    w.mock.faults.add({ key: A, status: 429, error: 'slow down', retry_after: 60 });
    await new Promise((r) => setTimeout(r, 1600));
    const third = await ask(w, 'reset headers three');
    expect(third.status).toBe(429);
    expect(third.retryAfter).toBeGreaterThanOrEqual(16);
    expect(third.retryAfter).toBeLessThanOrEqual(18);
    expect(sent(B)).toHaveLength(1);
  });

  it('cools a key a few seconds when its 429 says nothing, and keeps a 503 retry-after too', async () => {
    w.mock.faults.add({ key: A, status: 429, error: 'Too many requests' });
    w.mock.faults.add({ key: B, status: 503, error: 'overloaded', retry_after: 2 });
    const a = await ask(w, 'no header');
    expect(a.status).toBe(429);
    expect(a.retryAfter).toBeGreaterThanOrEqual(1);
    expect(a.retryAfter).toBeLessThanOrEqual(5);
    expect(sent(A)).toHaveLength(1);
    expect(sent(B)).toHaveLength(1);
    expect((await ask(w, 'no header again')).status).toBe(429);
    expect(w.mock.requests).toHaveLength(2);
  });

  it('backs off before asking a key it already tried in the same call', async () => {
    w.mock.faults.add({ key: A, status: 500, error: 'exploded' });
    w.mock.faults.add({ key: B, status: 500, error: 'exploded' });
    const a = await ask(w, 'backoff');
    expect(a.status).toBe(500);
    const at = w.mock.requests.map((r) => r.at);
    // err_retry 3: four attempts over two keys; the third and fourth ask a key a second time.
    expect(at).toHaveLength(4);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(45);
    expect(at[3]! - at[2]!).toBeGreaterThanOrEqual(95);
  });

  it('tells the SDKs not to retry a quota refusal (x-should-retry: false)', async () => {
    await w.server.app.ctx.db.updateTable('users').set({ quota: 0 }).where('user_id', '=', w.user.userId).execute();
    await w.server.app.gateway.snapshot.reload('users', [String(w.user.userId)]);
    await settled(w);
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    const sdk = new OpenAI({ apiKey: w.key, baseURL: `${w.server.url}/v1`, maxRetries: 2, fetch: counting });
    try {
      await expect(sdk.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'broke' }] })).rejects.toMatchObject({ status: 429, code: 'insufficient_quota' });
      expect(calls).toBe(1);
      const raw = await fetch(`${w.server.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'x' }] }) });
      expect(raw.status).toBe(429);
      expect(raw.headers.get('x-should-retry')).toBe('false');
      expect(w.mock.requests).toHaveLength(0);
    } finally {
      await w.server.app.ctx.db.updateTable('users').set({ quota: 1_000_000 }).where('user_id', '=', w.user.userId).execute();
      await w.server.app.gateway.snapshot.reload('users', [String(w.user.userId)]);
    }
  });

  it('answers an Anthropic client 429 in its shape with the retry-after', async () => {
    w.mock.faults.add({ key: A, status: 429, error: 'wait', retry_after: 9 });
    w.mock.faults.add({ key: B, status: 429, error: 'wait', retry_after: 4 });
    const res = await fetch(`${w.server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': w.key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'gpt-test', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('4');
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect(w.mock.requests).toHaveLength(2);
  });
});
