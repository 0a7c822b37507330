// The gateway under upstream faults, over real HTTP against the mock provider: a failing key among
// healthy ones, timeouts (the system config's), connection resets, slow and stalled streams, keys
// revoked while calls run, and every key failing. For every call: its attempts are logged, it is
// charged nothing (or exactly what reached the client) and no reservation is left behind.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { priceChat } from '../src/billing/price';
import { countChatPrompt, countCompletion } from '../src/billing/tokens';
import type { CallLogRow } from '../src/db/schema';
import { dialects, expectNoDrift } from './helpers';
import { resetUpstreams, settled, world, type World } from './gateway-fixtures';

const KEYS = ['sk-fault-key-a', 'sk-fault-key-b', 'sk-fault-key-c'];
const SOME_KEY_FAILS = 'upstream exploded';

interface Answer {
  status: number;
  traceId: string;
  ms: number;
  text: string;
}

/** One raw chat call (the SDK would hide the status, the trace id and the SSE frames). */
async function chat(w: World, content: string, opts: { stream?: boolean } = {}): Promise<Answer> {
  const started = performance.now();
  const body = { model: 'gpt-test', messages: [{ role: 'user', content }], ...(opts.stream ? { stream: true, stream_options: { include_usage: true } } : {}) };
  const res = await fetch(`${w.server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, traceId: res.headers.get('x-trace-id') ?? '', ms: performance.now() - started, text };
}

/** The frames of a streamed answer: the content the client read, an error event, the usage chunk, [DONE]. */
function frames(text: string) {
  const data = text
    .split('\n\n')
    .map((f) => f.replace(/^data: /, '').trim())
    .filter(Boolean);
  const events = data.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d) as Record<string, any>);
  return {
    content: events.map((e) => (e.choices as { delta?: { content?: string } }[] | undefined)?.[0]?.delta?.content ?? '').join(''),
    error: events.find((e) => e.error)?.error as { message: string; type: string; code: string } | undefined,
    usage: events.find((e) => e.usage)?.usage as { prompt_tokens: number; completion_tokens: number } | undefined,
    done: data.at(-1) === '[DONE]',
  };
}

describe.each(dialects)('gateway under upstream faults on %s', (dialect) => {
  let w: World;
  /** Provider key id by the plain key the mock sees. */
  let keyId: Record<string, string>;
  const userRef = () => ({ kind: 'user' as const, id: w.user.userId, limited: true });

  const logsOf = (traceId: string): Promise<CallLogRow[]> => w.server.app.ctx.db.selectFrom('call_logs').selectAll().where('trace_id', '=', traceId).orderBy('attempt').execute();
  const sentTo = (key: string, tag: string) => w.mock.requests.filter((r) => r.key === key && JSON.stringify(r.body).includes(tag)).length;

  /** Written, and nothing held: the gateway's view of the balance is the stored one, to the unit. */
  async function balance(): Promise<number> {
    await w.flush();
    const stored = await w.quotaOf(w.user.userId);
    expect(await w.server.app.gateway.ledger.available(userRef())).toBe(stored);
    return stored;
  }

  beforeAll(async () => {
    w = await world(dialect, { agentKeys: KEYS });
    keyId = Object.fromEntries([...w.server.app.gateway.snapshot.keys.values()].map((k) => [k.key, k.id]));
    expect(Object.keys(keyId).sort()).toEqual([...KEYS].sort());
    // Short upstream timeouts (seconds), set as an admin would.
    const r = await w.admin.post('/api/v1/sys/config/update', { action: 'base', base: { short_timeout: 1, long_timeout: 1 } });
    expect(r.body.code).toBe(0);
    await settled(w);
    expect(w.server.app.gateway.snapshot.sys.base).toMatchObject({ short_timeout: 1, long_timeout: 1 });
  });
  afterAll(() => w?.close());
  // Every test starts with all keys and agents enabled and no faults.
  beforeEach(() => resetUpstreams(w));

  it('keeps serving through the healthy keys while one answers 500, charging only the answered attempt', async () => {
    const bad = KEYS[0]!;
    w.mock.faults.add({ key: bad, status: 500, error: SOME_KEY_FAILS });
    const before = await balance();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => chat(w, `five hundred ${i}`)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    await w.flush();
    let charged = 0;
    let failedAttempts = 0;
    for (const a of answers) {
      const logs = await logsOf(a.traceId);
      // Failed attempts first (status 3, the bad key, nothing charged), then the answer.
      expect(logs.map((l) => l.status)).toEqual([...logs.slice(0, -1).map(() => 3), 1]);
      for (const l of logs.slice(0, -1)) {
        expect(l).toMatchObject({ key_id: keyId[bad], total_price: 0 });
        expect(l.err_msg).toContain(SOME_KEY_FAILS);
      }
      expect(logs.at(-1)!.key_id).not.toBe(keyId[bad]);
      expect(logs.at(-1)!.total_price).toBeGreaterThan(0);
      charged += logs.at(-1)!.total_price;
      failedAttempts += logs.length - 1;
    }
    // Round robin sent some first attempts to the bad key; each shows up as one logged retry.
    expect(failedAttempts).toBeGreaterThan(0);
    expect(failedAttempts).toBe(sentTo(bad, 'five hundred'));
    expect(await balance()).toBe(before - charged);
    // A 500 is the upstream's trouble, not the key's: it stays in rotation.
    const row = await w.server.app.ctx.db.selectFrom('provider_keys').select(['status', 'is_auto_disabled']).where('id', '=', keyId[bad]!).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 1, is_auto_disabled: 0 });
  });

  it('gives up on a key that does not answer within the configured timeout and retries elsewhere', async () => {
    const bad = KEYS[1]!;
    w.mock.faults.add({ key: bad, timeout: true });
    const before = await balance();
    // Three calls at once: round robin gives their first attempts three different keys, so one waits.
    const answers = await Promise.all([0, 1, 2].map((i) => chat(w, `slow key ${i}`)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    await w.flush();
    const logs = await Promise.all(answers.map((a) => logsOf(a.traceId)));
    const waited = answers.filter((_, i) => logs[i]!.length > 1);
    expect(waited.length).toBeGreaterThan(0);
    expect(waited.length).toBe(sentTo(bad, 'slow key'));
    for (const [i, l] of logs.entries()) {
      if (l.length === 1) {
        expect(l[0]!.status).toBe(1);
        expect(answers[i]!.ms).toBeLessThan(1000);
        continue;
      }
      expect(l.map((x) => x.status)).toEqual([3, 1]);
      expect(l[0]).toMatchObject({ key_id: keyId[bad], total_price: 0 });
      expect(l[0]!.err_msg).toMatch(/did not answer in time/);
      // short_timeout is 1 s: the call waited that long for the bad key, and not much longer.
      expect(answers[i]!.ms).toBeGreaterThanOrEqual(1000);
      expect(answers[i]!.ms).toBeLessThan(4000);
    }
    expect(await balance()).toBe(before - logs.flat().reduce((n, l) => n + l.total_price, 0));
  });

  it('retries a reset connection on another key, for JSON and for streams', async () => {
    const bad = KEYS[2]!;
    w.mock.faults.add({ key: bad, reset: true });
    const before = await balance();
    const json = await Promise.all([0, 1, 2].map((i) => chat(w, `reset json ${i}`)));
    const streams = await Promise.all([0, 1, 2].map((i) => chat(w, `reset stream ${i}`, { stream: true })));
    await w.flush();
    for (const [i, a] of [...json, ...streams].entries()) {
      expect(a.status).toBe(200);
      if (i >= 3) {
        const f = frames(a.text);
        expect(f.content).toBe(`Hello from mock gpt-test! You said: reset stream ${i - 3}`);
        expect(f.error).toBeUndefined();
        expect(f.done).toBe(true);
      }
    }
    const logs = await Promise.all([...json, ...streams].map((a) => logsOf(a.traceId)));
    const retried = logs.filter((l) => l.length > 1);
    // In each batch of three, round robin gave at least one first attempt to the bad key.
    expect(retried.length).toBeGreaterThanOrEqual(2);
    expect(retried.length).toBe(sentTo(bad, 'reset '));
    for (const l of retried) {
      expect(l.map((x) => x.status)).toEqual([3, 1]);
      expect(l[0]).toMatchObject({ key_id: keyId[bad], total_price: 0 });
      expect(l[0]!.err_msg).toMatch(/could not be reached/);
    }
    expect(await balance()).toBe(before - logs.flat().reduce((n, l) => n + l.total_price, 0));
  });

  it('lets a slow stream finish: the timeout is for silence, not for the whole answer', async () => {
    const before = await balance();
    // Six pieces 300 ms apart: 1.8 s in all, past the 1 s timeout, never silent for 1 s.
    const a = await chat(w, '[[mock:chunks=6]] [[mock:chunk_delay=300]] slow but steady', { stream: true });
    expect(a.status).toBe(200);
    expect(a.ms).toBeGreaterThan(1500);
    const f = frames(a.text);
    const answer = 'Hello from mock gpt-test! You said: slow but steady';
    expect(f).toMatchObject({ content: answer, error: undefined, done: true });
    await w.flush();
    const [log, ...more] = await logsOf(a.traceId);
    expect(more).toHaveLength(0);
    // Billed by the upstream's own usage (the mock counts a token per 4 characters).
    expect(log).toMatchObject({ status: 1, stream: 1, completion_tokens: Math.ceil(answer.length / 4) });
    expect(f.usage).toMatchObject({ completion_tokens: log!.completion_tokens, prompt_tokens: log!.prompt_tokens });
    expect(await balance()).toBe(before - log!.total_price);
  });

  // A stream that broke after reaching the client cannot be retried: it ends with an error event, and
  // the call is charged for the text the client got, counted locally (the upstream's usage never came).
  it.each([
    ['stalls (idle timeout)', '[[mock:stall_after=3]]', /Body Timeout/i],
    ['drops the connection', '[[mock:fail_after=3]]', /other side closed/],
  ])('ends a stream whose upstream %s with an error event, charged for what was delivered', async (_name, directive, cause) => {
    const before = await balance();
    const content = `${directive} break me midway`;
    const a = await chat(w, content, { stream: true });
    expect(a.status).toBe(200);
    const f = frames(a.text);
    expect(f.content).toBe('Hello from mock ');
    expect(f.error).toMatchObject({ type: 'upstream_error', code: 'stream_interrupted' });
    expect(f.error!.message).toMatch(/stream broke/);
    expect(f.done).toBe(true);
    if (directive.includes('stall')) expect(a.ms).toBeGreaterThanOrEqual(1000);

    await w.flush();
    const logs = await logsOf(a.traceId);
    expect(logs).toHaveLength(1);
    const log = logs[0]!;
    expect(log).toMatchObject({ status: -1, stream: 1 });
    expect(log.err_msg).toMatch(cause);
    const messages = [{ role: 'user' as const, content }];
    expect(log.completion_tokens).toBe(countCompletion('Hello from mock ', 'gpt-test'));
    expect(log.prompt_tokens).toBe(countChatPrompt(messages, 'gpt-test'));
    const model = w.server.app.gateway.snapshot.models.get(w.model)!;
    const usage = { prompt_tokens: log.prompt_tokens, completion_tokens: log.completion_tokens, total_tokens: log.total_tokens };
    expect(log.total_price).toBe(priceChat({ quotas: model.quotas, type: model.type, usage, discountBp: log.discount_bp }).quota);
    expect(log.total_price).toBeGreaterThan(0);
    // The client was told the same usage it pays for.
    expect(f.usage).toMatchObject({ prompt_tokens: log.prompt_tokens, completion_tokens: log.completion_tokens });
    expect(await balance()).toBe(before - log.total_price);
  });

  it.each([
    ['answers 500', { status: 500, error: 'all on fire' }, false, 500, /all on fire/],
    ['resets the connection (stream)', { reset: true }, true, 502, /could not be reached/],
  ])('when every key %s: an OpenAI error, every attempt logged, nothing charged', async (_name, fault, stream, httpStatus, message) => {
    for (const key of KEYS) w.mock.faults.add({ key, ...fault });
    const before = await balance();
    const tag = `doomed ${stream ? 'stream' : 'json'}`;
    const a = await chat(w, tag, { stream });
    expect(a.status).toBe(httpStatus);
    const body = JSON.parse(a.text) as { error: { message: string; type: string; code: string } };
    expect(body.error).toMatchObject({ type: expect.any(String), code: expect.any(String) });
    expect(body.error.message).toMatch(message);
    await w.flush();
    const logs = await logsOf(a.traceId);
    // err_retry 3: the first try and three retries, each logged; only the last says failed.
    expect(logs).toHaveLength(4);
    expect(logs).toHaveLength(KEYS.reduce((n, k) => n + sentTo(k, tag), 0));
    expect(logs.map((l) => l.status)).toEqual([3, 3, 3, -1]);
    expect(new Set(logs.map((l) => l.key_id))).toEqual(new Set(KEYS.map((k) => keyId[k])));
    expect(logs.every((l) => l.total_price === 0 && l.err_msg !== '')).toBe(true);
    expect(await balance()).toBe(before);
  });

  // Last: it deletes a key. The provider revokes two keys one after the other while calls run, and the
  // admin takes them out (one disabled, one deleted) through the console.
  it('serves every call while keys are revoked mid-run, and never picks a revoked key again', async () => {
    const [first, second, healthy] = KEYS as [string, string, string];
    const before = await balance();
    const revoked: { key: string; at: number }[] = [];
    let done = 0;
    const answers: Answer[] = [];
    const revoke = async (key: string, how: 'disable' | 'delete') => {
      // At the provider first (a real revocation answers 401 at once), then in the console.
      w.mock.faults.add({ key, status: 401, error: 'Incorrect API key provided: revoked' });
      const r =
        how === 'disable'
          ? await w.admin.post('/api/v1/key/change/status', { id: keyId[key], type: 2, status: 2 })
          : await w.admin.post('/api/v1/key/delete', { ids: [keyId[key]], type: 2 });
      expect(r.body.code).toBe(0);
      await settled(w);
      revoked.push({ key, at: Date.now() });
    };
    // 48 calls, 4 at a time, each held 25 ms by the upstream; the revocations land at 12 and 28 done.
    const worker = async (n: number) => {
      for (let i = n; i < 48; i += 4) {
        answers.push(await chat(w, `[[mock:delay=25]] revoke run ${i}`));
        done++;
        if (done === 12) await revoke(first, 'disable');
        if (done === 28) await revoke(second, 'delete');
      }
    };
    await Promise.all([0, 1, 2, 3].map(worker));
    expect(answers).toHaveLength(48);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(revoked.map((r) => r.key)).toEqual([first, second]);

    await w.flush();
    const logs = (await Promise.all(answers.map((a) => logsOf(a.traceId)))).flat();
    // Every call ends answered; what failed on the way is a revoked key's 401, logged and free.
    const traces = new Map<string, CallLogRow[]>();
    for (const l of logs) traces.set(l.trace_id, [...(traces.get(l.trace_id) ?? []), l]);
    expect(traces.size).toBe(48);
    for (const rows of traces.values()) expect(rows.at(-1)!.status).toBe(1);
    for (const l of logs.filter((x) => x.status !== 1)) {
      expect(l.status).toBe(3);
      expect([keyId[first], keyId[second]]).toContain(l.key_id);
      expect(l.total_price).toBe(0);
    }
    // A call that arrived after a revocation reached the gateway's snapshot never picked that key.
    for (const { key, at } of revoked) {
      const late = logs.filter((l) => l.req_time > at);
      expect(late.length).toBeGreaterThan(0);
      expect(late.filter((l) => l.key_id === keyId[key])).toEqual([]);
    }
    const afterBoth = logs.filter((l) => l.req_time > revoked[1]!.at);
    expect(new Set(afterBoth.map((l) => l.key_id))).toEqual(new Set([keyId[healthy]]));
    // The console's word stands: one key disabled, one gone, from the database and the snapshot.
    const rows = await w.server.app.ctx.db.selectFrom('provider_keys').select(['id', 'status']).execute();
    expect(rows.find((r) => r.id === keyId[first])?.status).toBe(2);
    expect(rows.find((r) => r.id === keyId[second])).toBeUndefined();
    expect(w.server.app.gateway.snapshot.keys.get(keyId[first]!)?.status).toBe(2);
    expect(w.server.app.gateway.snapshot.keys.has(keyId[second]!)).toBe(false);
    const charged = logs.reduce((n, l) => n + l.total_price, 0);
    expect(await balance()).toBe(before - charged);
  });

  it('ends with every balance adding up to its records (ledger verifier)', () => expectNoDrift(w.server));
});
