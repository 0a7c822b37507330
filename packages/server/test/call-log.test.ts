// Call logs in the console (docs/ORIGINAL-API.md §1.6, docs/SPEC.md §2/§6): rows written by the gateway's real writer after
// calls through the mock provider, plus direct inserts for volume and filters; every verb per role.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewCallLog } from '../src/db/schema';
import { newId } from '../src/http/ids';
import { formatTime } from '../src/http/time';
import { setSysSection } from '../src/settings/sys-config';
import { PROVIDER_KEYS, world, type World } from './gateway-fixtures';
import { dialects, signedIn, type Client } from './helpers';

const DAY = 86_400_000;
const LEAK = 'Incorrect API key provided: sk-abc***xyz';

type Signed = Client & { userId: number };

/** A complete call-log row; tests override what they look at. */
function logRow(over: Partial<NewCallLog>): NewCallLog {
  const now = Date.now();
  return {
    id: newId(),
    trace_id: `t-${newId()}`,
    attempt: 0,
    user_id: 0,
    app_id: 0,
    rid: 0,
    type: 1,
    stream: 0,
    is_enable_model_agent: 0,
    is_retry: 0,
    retry_count: 0,
    is_smart_match: 0,
    status: 1,
    prompt_tokens: 10,
    completion_tokens: 20,
    cached_tokens: 0,
    total_tokens: 30,
    total_price: 50,
    discount_bp: 10_000,
    conn_time: 5,
    duration: 50,
    total_time: 55,
    internal_time: 1,
    req_time: now,
    created_at: now,
    prompt_ratio: 1,
    completion_ratio: 2,
    endpoint: '/v1/chat/completions',
    creator: 'sk-FastAPI*abcde',
    app_key_id: '',
    corp: '',
    corp_name: 'OpenAI',
    group_id: '',
    group_name: '',
    model_id: 'm1',
    name: 'gpt-a',
    model: 'gpt-a',
    real_model_id: 'm1',
    real_model: 'gpt-a-upstream',
    model_agent_id: 'agent-x',
    model_agent_name: 'agent x',
    key_id: '',
    key_mask: 'sk-prov***12',
    client_ip: '10.0.0.1',
    remote_ip: '10.9.9.9',
    err_msg: '',
    prompt: '',
    completion: '',
    messages: '',
    ...over,
  };
}

describe.each(dialects)('call logs on %s', (dialect) => {
  let w: World;
  let reseller: Signed;
  let resUser: Signed;
  let reseller2: Signed;
  let res2User: Signed;
  let other: Signed;
  let resUserKey: string;
  let resUserKeyId: string;
  const ids: Record<string, string> = {};
  const tz = 'Asia/Shanghai';
  const at = (ms: number) => formatTime(ms, tz);
  const insert = async (rows: NewCallLog[]) => {
    for (let i = 0; i < rows.length; i += 200) await w.server.app.ctx.db.insertInto('call_logs').values(rows.slice(i, i + 200)).execute();
  };
  const page = (c: Client, body: Record<string, unknown> = {}, kind = 'chat') => c.post(`/api/v1/log/${kind}/page`, { pageSize: 100, ...body });

  beforeAll(async () => {
    w = await world(dialect);
    const db = w.server.app.ctx.db;
    // Keep the request messages so the detail can decode them.
    await setSysSection(db, 'log', { chat_records: ['prompt', 'completion', 'messages'] });
    await w.server.app.gateway.snapshot.reload('sys_configs', 'all');

    // Real calls through the gateway: one plain, one retried onto the second key.
    await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hello logs' }] });
    w.mock.faults.add({ key: PROVIDER_KEYS[0]!, status: 500, error: 'upstream exploded', times: 1 });
    w.mock.faults.add({ key: PROVIDER_KEYS[1]!, status: 500, error: 'upstream exploded', times: 1 });
    await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'retry logs' }] });
    w.mock.faults.clear();
    await w.flush();

    const tag = Math.random().toString(36).slice(2, 8);
    reseller = await signedIn(w.server, 'reseller', `res-${tag}`);
    resUser = await signedIn(w.server, 'user', `ru-${tag}`, { rid: reseller.userId });
    reseller2 = await signedIn(w.server, 'reseller', `res2-${tag}`);
    res2User = await signedIn(w.server, 'user', `r2u-${tag}`, { rid: reseller2.userId });
    other = await signedIn(w.server, 'user', `other-${tag}`);
    const app = await resUser.post('/api/v1/app/create', { name: 'ru app', is_create_key: true });
    resUserKey = app.body.data.key;
    resUserKeyId = (await db.selectFrom('app_keys').select('id').where('user_id', '=', resUser.userId).executeTakeFirstOrThrow()).id;

    const now = Date.now();
    const rows: NewCallLog[] = [];
    const add = (name: string, over: Partial<NewCallLog>) => {
      const row = logRow(over);
      ids[name] = row.id;
      rows.push(row);
    };
    const ru = { user_id: resUser.userId, rid: reseller.userId, app_id: 9001, app_key_id: resUserKeyId, creator: 'sk-FastAPI*RUkey' };
    add('ruOk', { ...ru, req_time: now - 3 * 3600_000, model: 'gpt-a', total_time: 100, model_agent_id: 'agent-1' });
    add('ruFail', { ...ru, req_time: now - 2 * 3600_000, model: 'gpt-b', status: -1, err_msg: LEAK, total_time: 3000, model_agent_id: 'agent-2' });
    add('ruAborted', { ...ru, req_time: now - 1 * 3600_000, model: 'gpt-a', status: 2, total_time: 800 });
    add('ruOld', { ...ru, req_time: now - 10 * DAY, model: 'gpt-a' });
    add('ruImage', { ...ru, req_time: now - 3600_000, type: 2, model: 'dall-e' });
    add('reseller', { user_id: reseller.userId, rid: 0, app_id: 9002, req_time: now - 4 * 3600_000, model: 'gpt-a' });
    add('res2User', { user_id: res2User.userId, rid: reseller2.userId, app_id: 9003, req_time: now - 3600_000, model: 'gpt-a', err_msg: LEAK });
    add('other', { user_id: other.userId, app_id: 9004, req_time: now - 3600_000, model: 'gpt-a' });
    await insert(rows);
  });
  afterAll(() => w?.close());

  it('shows a user its gateway calls with the right spend, the detail with messages and every attempt', async () => {
    const db = w.server.app.ctx.db;
    const stored = await db.selectFrom('call_logs').selectAll().where('user_id', '=', w.user.userId).orderBy('req_time').orderBy('attempt').execute();
    const r = await page(w.user);
    expect(r.body.code).toBe(0);
    expect(r.body.data.paging.total).toBe(stored.length);
    const rows = r.body.data.items as Record<string, unknown>[];
    // Newest first.
    expect(rows.map((x) => x.req_time)).toEqual([...rows.map((x) => x.req_time as string)].sort().reverse());
    const plain = stored.find((s) => s.prompt.includes('hello logs'))!;
    const wirePlain = rows.find((x) => x.id === plain.id)!;
    expect(wirePlain).toMatchObject({ model: 'gpt-test', status: 1, total_price: plain.total_price, prompt_tokens: Math.ceil('hello logs'.length / 4), stream: false, user_id: w.user.userId, app_id: w.appId });
    // The mock counts ceil(chars / 4) tokens; ratios 1 and 2 (gateway-fixtures).
    expect(plain.total_price).toBe(plain.prompt_tokens + plain.completion_tokens * 2);
    // The original console's meaning (docs/SPEC.md §3.12.1): total_tokens is the charge in quota units; the tokens are token_count.
    expect(wirePlain).toMatchObject({ total_tokens: plain.total_price, token_count: plain.prompt_tokens + plain.completion_tokens, completion_tokens: plain.completion_tokens });
    expect(plain.total_price).not.toBe(plain.prompt_tokens + plain.completion_tokens);
    // Admin-only row fields are withheld.
    for (const f of ['internal_time', 'is_smart_match', 'model_agent_name', 'real_model']) expect(wirePlain).not.toHaveProperty(f);

    const retried = stored.filter((s) => s.prompt.includes('retry logs'));
    expect(retried.length).toBeGreaterThanOrEqual(2);
    const last = retried.at(-1)!;
    const d = await w.user.get('/api/v1/log/chat/detail', { id: last.id });
    expect(d.body.code).toBe(0);
    const detail = d.body.data;
    expect(detail.messages).toEqual([{ role: 'user', content: 'retry logs' }]);
    expect(detail.attempts.map((a: { status: number }) => a.status)).toEqual([...retried.slice(0, -1).map(() => 3), 1]);
    expect(detail.attempts.map((a: { id: string }) => a.id)).toEqual(retried.map((x) => x.id));
    expect(detail.attempts[0].err_msg).toContain('upstream exploded');
    expect(detail.retry).toMatchObject({ is_retry: true, retry_count: retried.length - 1 });
    expect(detail.retry.err_msg).toContain('upstream exploded');
    expect(detail.spend).toEqual({
      prompt_tokens: last.prompt_tokens,
      completion_tokens: last.completion_tokens,
      cached_tokens: 0,
      cache_write_tokens: 0,
      reasoning_tokens: 0,
      prompt_ratio: 1,
      completion_ratio: 2,
      discount: 1,
      total_price: last.total_price,
      line_items: [
        { kind: 'input', unit: 'token', quantity: last.prompt_tokens, unit_price: 1, quota: last.prompt_tokens },
        { kind: 'output', unit: 'token', quantity: last.completion_tokens, unit_price: 2, quota: 2 * last.completion_tokens },
      ],
    });
    expect(detail.creator).toBe(last.creator);
    expect(detail.creator).not.toBe(w.key);
    // The original console's detail fields; the agent and the real model's name are the operator's business.
    const textQuota = { billing_method: 1, prompt_ratio: 1, completion_ratio: 2, cached_ratio: 0, fixed_quota: 0 };
    expect(detail).toMatchObject({ total_tokens: last.total_price, text_quota: textQuota, multimodal_quota: { text_quota: textQuota, vision_quotas: [] }, host: '', search_tokens: 0, cache_write_tokens: 0, cache_hit_tokens: 0, real_model_name: '', model_agent: null });
    for (const f of ['key', 'model_id', 'name', 'remote_ip', 'real_model_id', 'model_agent_id', 'is_enable_model_agent', 'internal_time']) expect(detail).not.toHaveProperty(f);
    for (const a of detail.attempts) {
      expect(a).not.toHaveProperty('key');
      expect(a).not.toHaveProperty('model_agent_name');
      expect(a.real_model).toBe('');
    }

    const asAdmin = (await w.admin.get('/api/v1/log/chat/detail', { id: last.id })).body.data;
    expect(asAdmin.key).toBe(last.key_mask);
    expect(asAdmin.key).toMatch(/\*/);
    expect(asAdmin).toMatchObject({ model_id: last.model_id, model_agent_name: 'mock', real_model: 'gpt-test', remote_ip: last.remote_ip });
    expect(asAdmin).toMatchObject({ real_model_name: 'gpt-test', model_agent: { id: w.agent, name: 'mock', base_url: w.mock.url, lb_strategy: 1, status: 1 } });
    expect(asAdmin.attempts[0].key).toMatch(/\*/);
  });

  it('filters by every field of the log filter', async () => {
    const a = w.admin;
    const names = async (body: Record<string, unknown>, kind = 'chat') => {
      const r = await page(a, body, kind);
      expect(r.body.code).toBe(0);
      return (r.body.data.items as { id: string }[]).map((x) => Object.entries(ids).find(([, id]) => id === x.id)?.[0] ?? 'gateway');
    };
    const last = await w.server.app.ctx.db.selectFrom('call_logs').select(['trace_id', 'id']).where('user_id', '=', w.user.userId).orderBy('req_time', 'desc').executeTakeFirstOrThrow();
    const byTrace = await page(a, { trace_id: last.trace_id });
    expect((byTrace.body.data.items as { trace_id: string }[]).every((x) => x.trace_id === last.trace_id)).toBe(true);
    expect(byTrace.body.data.items.length).toBeGreaterThan(0);

    expect(await names({ user_id: resUser.userId })).toEqual(['ruAborted', 'ruFail', 'ruOk', 'ruOld']);
    expect(await names({ user_id: String(resUser.userId), app_id: 9001, models: ['gpt-b'] })).toEqual(['ruFail']);
    expect(await names({ app_id: 9003 })).toEqual(['res2User']);
    // The whole app key matches by hash; a fragment matches the masked form.
    expect(await names({ key: resUserKey })).toEqual(['ruAborted', 'ruFail', 'ruOk', 'ruOld']);
    expect(await names({ key: 'RUkey' })).toEqual(['ruAborted', 'ruFail', 'ruOk', 'ruOld']);
    expect(await names({ key: 'sk-FastAPInotakeyatall' })).toEqual([]);
    const gw = await names({ key: w.key });
    expect(gw.length).toBeGreaterThanOrEqual(3);
    expect(gw.every((n) => n === 'gateway')).toBe(true);
    expect(await names({ user_id: resUser.userId, model_agents: ['agent-2'] })).toEqual(['ruFail']);
    expect(await names({ user_id: resUser.userId, total_time: 800 })).toEqual(['ruAborted', 'ruFail']);
    expect(await names({ user_id: resUser.userId, status: -1 })).toEqual(['ruFail']);
    expect(await names({ user_id: resUser.userId, status: -100 })).toEqual(['ruAborted', 'ruFail']);
    expect(await names({ user_id: resUser.userId, status: 1 })).toEqual(['ruOk', 'ruOld']);
    expect(await names({ user_id: resUser.userId, status: 0 })).toHaveLength(4);
    const now = Date.now();
    expect(await names({ user_id: resUser.userId, req_time: [at(now - 2.5 * 3600_000), at(now)] })).toEqual(['ruAborted', 'ruFail']);
    expect(await names({ user_id: resUser.userId, req_time: [at(now - 11 * DAY).slice(0, 10), ''] })).toHaveLength(4);
    // The end second is inclusive.
    const ok = await w.server.app.ctx.db.selectFrom('call_logs').select('req_time').where('id', '=', ids.ruOk!).executeTakeFirstOrThrow();
    expect(await names({ user_id: resUser.userId, req_time: [at(ok.req_time), at(ok.req_time)] })).toEqual(['ruOk']);
    // Kinds: the image row is only on the image screen.
    expect(await names({ user_id: resUser.userId }, 'image')).toEqual(['ruImage']);
    expect(await names({ user_id: resUser.userId }, 'audio')).toEqual([]);
    // model_agents is the admin's filter: a user's is ignored.
    const mine = await page(resUser, { model_agents: ['agent-2'] });
    expect(mine.body.data.paging.total).toBe(4);

    // Paging: fixed order, out-of-range pages fall back to the first.
    const p2 = await a.post('/api/v1/log/chat/page', { user_id: resUser.userId, current: 2, pageSize: 3 });
    expect(p2.body.data.paging).toEqual({ current: 2, pageSize: 3, total: 4 });
    expect(p2.body.data.items.map((x: { id: string }) => x.id)).toEqual([ids.ruOld]);
    const p9 = await a.post('/api/v1/log/chat/page', { user_id: resUser.userId, current: 9, pageSize: 3 });
    expect(p9.body.data.paging.current).toBe(1);
    expect(p9.body.data.items).toHaveLength(3);
  });

  it('keeps every role in its scope, whatever ids it names', async () => {
    const seen = async (c: Client, body: Record<string, unknown> = {}) => ((await page(c, body)).body.data.items as { id: string }[]).map((x) => x.id);
    const resSees = await seen(reseller);
    expect(resSees).toEqual(expect.arrayContaining([ids.ruOk, ids.ruFail, ids.ruAborted, ids.ruOld, ids.reseller]));
    expect(resSees).toHaveLength(5);
    expect(await seen(reseller, { user_id: res2User.userId })).toEqual([]);
    expect(await seen(reseller, { user_id: other.userId })).toEqual([]);
    expect(await seen(reseller, { user_id: reseller.userId })).toEqual([ids.reseller]);
    expect(await seen(reseller, { app_id: 9003 })).toEqual([]);
    expect(await seen(other)).toEqual([ids.other]);
    expect(await seen(other, { user_id: resUser.userId })).toEqual([]);
    expect(await seen(resUser)).toHaveLength(4);
    expect((await seen(w.admin)).length).toBeGreaterThanOrEqual(10);

    for (const [c, id] of [
      [other, ids.ruOk],
      [reseller, ids.res2User],
      [reseller2, ids.ruOk],
      [resUser, ids.reseller],
    ] as const) {
      const d = await c.get('/api/v1/log/chat/detail', { id: id! });
      expect(d.status).toBe(200);
      expect(d.body.code).not.toBe(0);
      expect(d.body.data).toBeNull();
    }
    // A detail of another kind is not found on this screen either.
    expect((await resUser.get('/api/v1/log/chat/detail', { id: ids.ruImage! })).body.code).not.toBe(0);
    expect((await resUser.get('/api/v1/log/image/detail', { id: ids.ruImage! })).body.code).toBe(0);
    expect((await reseller.get('/api/v1/log/chat/detail', { id: ids.ruOk! })).body.code).toBe(0);
  });

  it('shields upstream error texts from users and resellers as the gateway does', async () => {
    const mine = (await resUser.get('/api/v1/log/chat/detail', { id: ids.ruFail! })).body.data;
    expect(mine.err_msg).not.toContain('sk-abc');
    expect(mine.err_msg).toContain(mine.trace_id);
    expect(mine.attempts[0].err_msg).toBe(mine.err_msg);
    expect((await reseller.get('/api/v1/log/chat/detail', { id: ids.ruFail! })).body.data.err_msg).not.toContain('sk-abc');
    expect((await w.admin.get('/api/v1/log/chat/detail', { id: ids.ruFail! })).body.data.err_msg).toBe(LEAK);
  });

  it('reveals masked values only to whoever may see them', async () => {
    const gwLog = await w.server.app.ctx.db.selectFrom('call_logs').select(['id', 'key_id']).where('user_id', '=', w.user.userId).where('status', '=', 1).executeTakeFirstOrThrow();
    const copy = (c: Client, id: string, field: string) => c.post('/api/v1/log/chat/copy/field', { id, field });
    expect((await copy(w.user, gwLog.id, 'creator')).body.data).toEqual({ value: w.key });
    expect((await copy(w.admin, gwLog.id, 'creator')).body.data).toEqual({ value: w.key });
    const denied = await copy(w.user, gwLog.id, 'key');
    expect(denied.status).toBe(200);
    expect(denied.body.code).toBe(999);
    expect(denied.body.data).toBeNull();
    expect(denied.body.message).toContain('管理员');
    const provider = await copy(w.admin, gwLog.id, 'key');
    expect(PROVIDER_KEYS).toContain(provider.body.data.value);
    // Someone else's log: not found, nothing revealed.
    const foreign = await copy(other, gwLog.id, 'creator');
    expect(foreign.body.code).not.toBe(0);
    expect(foreign.body.data).toBeNull();
    expect((await copy(reseller, gwLog.id, 'creator')).body.code).not.toBe(0);
    // A reseller may copy its user's app key.
    expect((await copy(reseller, ids.ruOk!, 'creator')).body.data).toEqual({ value: resUserKey });
    expect((await copy(reseller, ids.ruOk!, 'key')).body.code).toBe(999);
    expect((await copy(w.user, gwLog.id, 'password')).body.code).toBe(51);
  });

  it('exports to a streamed xlsx per role, with the chat export’s required range and result', async () => {
    const now = Date.now();
    const range = [at(now - DAY), at(now)];
    const download = async (c: Client, body: Record<string, unknown>, kind = 'chat') => {
      const res = await c.raw('POST', `/api/v1/log/${kind}/export`, JSON.stringify(body));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('spreadsheetml');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(await res.arrayBuffer());
      return { res, rows: book.worksheets[0]!.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1)) };
    };

    const full = await download(w.admin, { req_time: range, status: -100, user_id: resUser.userId });
    expect(full.res.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('聊天日志.xlsx')}`);
    const head = full.rows[0] as string[];
    expect(head).toEqual(expect.arrayContaining(['请求时间', '用户ID', '模型', '实际模型', '模型密钥', '花费（$）', '结果', '错误信息']));
    const body = full.rows.slice(1);
    expect(body).toHaveLength(2);
    const col = (name: string) => head.indexOf(name);
    expect(body.map((r) => r[col('结果')])).toEqual(['已中止', '失败']);
    expect(body[1]![col('花费（$）')]).toBe(50 / 500_000);
    expect(body[1]![col('错误信息')]).toBe(LEAK);
    expect(body[1]![col('模型密钥')]).toBe('sk-prov***12');

    // A user: own rows only, no admin columns, shielded errors, English headers when asked.
    resUser.lang = 'en-US';
    const mine = await download(resUser, { req_time: range, status: -100, user_id: other.userId });
    expect(mine.rows).toHaveLength(1);
    const own = await download(resUser, { req_time: range, status: -1 });
    resUser.lang = 'zh-CN';
    const ownHead = own.rows[0] as string[];
    expect(ownHead).toContain('Request time');
    for (const h of ['User ID', 'Provider key', 'Real model', 'Model agent', 'Remote IP']) expect(ownHead).not.toContain(h);
    expect(own.rows).toHaveLength(2);
    expect(String(own.rows[1]![ownHead.indexOf('Error')])).not.toContain('sk-abc');
    expect(JSON.stringify(own.rows)).not.toContain('10.9.9.9');

    // ids win over the filter and stay in scope.
    const picked = await download(w.admin, { ids: [ids.ruOk, ids.ruOld] });
    expect(picked.rows).toHaveLength(3);
    expect((await download(other, { ids: [ids.ruOk] })).rows).toHaveLength(1);
    // Other kinds need no range.
    const images = await download(reseller, {}, 'image');
    expect(images.rows).toHaveLength(2);
    expect(images.res.headers.get('content-disposition')).toContain(encodeURIComponent('绘图日志.xlsx'));

    // The chat export's rules and the span limit: envelope errors naming the field.
    const noRange = await w.admin.post('/api/v1/log/chat/export', { status: 1 });
    expect(noRange.body.code).toBe(51);
    expect(noRange.body.message).toContain('req_time');
    const halfRange = await w.admin.post('/api/v1/log/chat/export', { status: 1, req_time: [range[0], ''] });
    expect(halfRange.body.message).toContain('req_time');
    const noStatus = await w.admin.post('/api/v1/log/chat/export', { req_time: range });
    expect(noStatus.body.code).toBe(51);
    expect(noStatus.body.message).toContain('status');
    const tooLong = await w.admin.post('/api/v1/log/chat/export', { req_time: [at(now - 100 * DAY), at(now)], status: 1 });
    expect(tooLong.body.code).toBe(51);
    expect(tooLong.body.message).toContain('93');
    expect((await w.admin.post('/api/v1/log/image/export', { req_time: [at(now - 100 * DAY), ''] })).body.code).toBe(51);
  });

  it('exports thousands of rows in keyset batches, in order, without losing ties', async () => {
    const bulk = await signedIn(w.server, 'user', `bulk-${Math.random().toString(36).slice(2, 8)}`);
    const base = Date.now() - 3600_000;
    // 2500 rows on 500 distinct request times: every batch boundary falls inside a tie.
    const rows = Array.from({ length: 2500 }, (_, i) => logRow({ user_id: bulk.userId, req_time: base - Math.floor(i / 5) * 1000, trace_id: `bulk-${i}` }));
    await insert(rows);
    const res = await bulk.raw('POST', '/api/v1/log/chat/export', JSON.stringify({ req_time: [at(base - 600_000), at(base + 1000)], status: 1 }));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const data = book.worksheets[0]!.getSheetValues().filter(Boolean).slice(1).map((r) => (r as unknown[]).slice(1));
    expect(data).toHaveLength(2500);
    const traces = data.map((r) => r[1] as string);
    expect(new Set(traces).size).toBe(2500);
    const times = data.map((r) => r[0] as string);
    expect(times).toEqual([...times].sort().reverse());
    expect((await page(bulk, { pageSize: 10 })).body.data.paging.total).toBe(2500);
  });

  it('lets only admins delete, by ids or by time in the background', async () => {
    const db = w.server.app.ctx.db;
    const denied = await resUser.post('/api/v1/log/chat/batch/operate', { action: 'delete', ids: [ids.ruOld] });
    expect(denied.status).toBe(401);
    expect(await db.selectFrom('call_logs').select('id').where('id', '=', ids.ruOld!).executeTakeFirst()).toBeTruthy();

    // By ids: only rows of this kind.
    const del = await w.admin.post('/api/v1/log/chat/batch/operate', { action: 'delete', ids: [ids.ruOld, ids.ruImage] });
    expect(del.body.code).toBe(0);
    expect(await db.selectFrom('call_logs').select('id').where('id', '=', ids.ruOld!).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom('call_logs').select('id').where('id', '=', ids.ruImage!).executeTakeFirst()).toBeTruthy();

    // By time, user and status: answers at once, deletes in the background.
    const victim = await signedIn(w.server, 'user', `victim-${Math.random().toString(36).slice(2, 8)}`);
    const now = Date.now();
    const victimRows = Array.from({ length: 2300 }, (_, i) => logRow({ user_id: victim.userId, req_time: now - 5 * DAY + i, status: i % 10 === 0 ? -1 : 1 }));
    await insert(victimRows);
    const byTime = await w.admin.post('/api/v1/log/chat/batch/operate', { action: 'time', value: [at(now - 6 * DAY), at(now - 4 * DAY)], user_id: victim.userId, status: [1, 2, 3] });
    expect(byTime.body).toMatchObject({ code: 0, data: null });
    const left = async () => db.selectFrom('call_logs').select(['status']).where('user_id', '=', victim.userId).execute();
    for (let i = 0; i < 200 && (await left()).length > 230; i++) await new Promise((r) => setTimeout(r, 25));
    const remaining = await left();
    expect(remaining).toHaveLength(230);
    expect(remaining.every((r) => r.status === -1)).toBe(true);
    // Nobody else's rows went.
    expect((await page(w.admin, { user_id: resUser.userId })).body.data.paging.total).toBe(3);

    const bad = await w.admin.post('/api/v1/log/chat/batch/operate', { action: 'time', value: ['yesterday', 'today'] });
    expect(bad.body.code).toBe(51);
    expect(bad.body.message).toContain('value');
    expect((await w.admin.post('/api/v1/log/chat/batch/operate', { action: 'time', value: ['', at(now)] })).body.message).toContain('value');
    expect((await w.admin.post('/api/v1/log/chat/batch/operate', { action: 'purge', ids: [] })).body.code).toBe(51);
    expect((await w.admin.post('/api/v1/log/chat/batch/operate', { action: 'delete', ids: [] })).body.code).toBe(51);
  });

  it('answers live per-second and per-minute rates of the caller’s chat calls', async () => {
    const live = await signedIn(w.server, 'user', `live-${Math.random().toString(36).slice(2, 8)}`);
    const scoped = { user_id: live.userId, rid: 0 };
    // Rows a minute window counts but a second window does not.
    const minuteAgo = Date.now() - 30_000;
    await insert([
      logRow({ ...scoped, req_time: minuteAgo, prompt_tokens: 100, completion_tokens: 1 }),
      logRow({ ...scoped, req_time: Date.now() - 120_000, prompt_tokens: 1000, completion_tokens: 1000 }),
      logRow({ ...scoped, req_time: minuteAgo, type: 2, prompt_tokens: 1000 }),
      logRow({ user_id: other.userId, req_time: minuteAgo, prompt_tokens: 1000 }),
    ]);
    // The second window moves: retry until one round trip fits in it (a loaded machine may be slow).
    let second: { rps: number; tps: number } | undefined;
    for (let i = 0; i < 5 && !second; i++) {
      const t0 = Date.now();
      await insert([
        logRow({ ...scoped, req_time: t0, prompt_tokens: 3, completion_tokens: 4, model: `m-${i}` }),
        logRow({ ...scoped, req_time: t0, prompt_tokens: 5, completion_tokens: 6, model: `m-${i}` }),
        logRow({ ...scoped, req_time: t0, is_smart_match: 1, prompt_tokens: 500, model: `m-${i}` }),
        logRow({ ...scoped, req_time: t0, status: 3, prompt_tokens: 500, model: `m-${i}` }),
      ]);
      const r = await live.post('/api/v1/dashboard/per/second', { models: [`m-${i}`] });
      expect(r.body.code).toBe(0);
      if (Date.now() - t0 < 900) second = r.body.data;
    }
    expect(second).toEqual({ rps: 2, tps: 18 });

    const minute = (await live.post('/api/v1/dashboard/per/minute', {})).body.data;
    expect(minute.rpm).toBeGreaterThanOrEqual(3);
    expect(minute.tpm).toBeGreaterThanOrEqual(101 + 18);
    expect(minute.tpm % 18).toBe(101 % 18);
    // Another tenant's id in the filter counts nothing; an admin naming the user sees the same.
    expect((await live.post('/api/v1/dashboard/per/minute', { user_id: other.userId })).body.data).toEqual({ rpm: 0, tpm: 0 });
    expect((await w.admin.post('/api/v1/dashboard/per/minute', { user_id: live.userId })).body.data).toEqual(minute);
    expect((await w.admin.post('/api/v1/dashboard/per/minute', { user_id: live.userId, status: -1 })).body.data).toEqual({ rpm: 0, tpm: 0 });

    // Real gateway calls count for their user.
    await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'live' }] });
    await w.flush();
    expect((await w.user.post('/api/v1/dashboard/per/minute', {})).body.data.rpm).toBeGreaterThanOrEqual(1);
    expect((await live.post('/api/v1/dashboard/per/minute', { status: 9 })).body.code).toBe(51);
  });

  it('answers bad input with envelope errors naming the field, never a 500', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ status: 7 }, 'status'],
      [{ status: 'all' }, 'status'],
      [{ req_time: ['2024-13-45 00:00:00', '2024-12-01 00:00:00'] }, 'req_time'],
      [{ req_time: ['2024-02-30', '2024-03-01'] }, 'req_time'],
      [{ req_time: ['2024-01-01'] }, 'req_time'],
      [{ req_time: ['2024-03-01', '2024-01-01'] }, 'req_time'],
      [{ req_time: 'last week' }, 'req_time'],
      [{ user_id: 'me' }, 'user_id'],
      [{ models: 'gpt-a' }, 'models'],
      [{ total_time: -5 }, 'total_time'],
      [{ key: 'k'.repeat(300) }, 'key'],
      [{ pageSize: 5000 }, 'pageSize'],
    ];
    for (const [body, field] of cases) {
      const r = await w.user.post('/api/v1/log/chat/page', body);
      expect(r.status, JSON.stringify(body)).toBe(200);
      expect(r.body.code, JSON.stringify(body)).toBe(51);
      expect(r.body.message).toContain(field);
    }
    // The original console's encodings of the filter: the status as text, "" and [] when cleared.
    const all = (await page(w.user)).body.data.paging.total as number;
    expect((await page(w.user, { status: '', req_time: [] })).body.data.paging.total).toBe(all);
    const asText = await page(w.user, { status: '1' });
    expect(asText.body.code).toBe(0);
    expect(asText.body.data.paging.total).toBe((await page(w.user, { status: 1 })).body.data.paging.total);
    const noId = await w.user.get('/api/v1/log/chat/detail');
    expect(noId.body.code).toBe(51);
    const unknownId = await w.user.get('/api/v1/log/chat/detail', { id: '123' });
    expect(unknownId.body.code).toBe(50);
    expect((await w.user.post('/api/v1/log/chat/export', { req_time: ['x', 'y'], status: 1 })).body.code).toBe(51);
    expect((await w.user.post('/api/v1/dashboard/per/second', { req_time: ['2024-01-01'] })).body.code).toBe(51);
    expect((await w.user.post('/api/v1/log/nope/page', {})).status).toBe(404);
    expect(w.server.logs.filter((l) => l.includes('"level":50'))).toEqual([]);
  });
});
