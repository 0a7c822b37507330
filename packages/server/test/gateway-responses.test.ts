// POST /v1/responses and the stored responses, through the official openai SDK against the real app
// fronting the mock: converted to chat for chat upstreams (OpenAI- and Anthropic-family), sent as is to
// an agent whose upstream speaks Responses; the full event sequence; function tools over two turns;
// previous_response_id, GET / DELETE / input_items, owner-only and within retention; billed and logged
// like chat; bad input refused with OpenAI's `param`.
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dialects, expectNoDrift, signedIn } from './helpers';
import { settled, world, type World } from './gateway-fixtures';

const answer = (model: string, said: string) => `Hello from mock ${model}! You said: ${said}`;
/** The mock's token count (packages/mock-provider/src/text.ts). */
const tokens = (text: string) => Math.ceil(text.length / 4);
const weather = { type: 'function' as const, name: 'get_weather', description: 'The weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, strict: false };

describe.each(dialects)('POST /v1/responses on %s', (dialect) => {
  let w: World;
  let stranger: OpenAI;

  const lastLog = async () => {
    await w.flush();
    return w.server.app.ctx.db.selectFrom('call_logs').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirstOrThrow();
  };

  /** A model of another family (or wire API) behind its own agent on the mock. */
  async function addModel(code: string, name: string, agent: Record<string, unknown> = {}) {
    const corp = (await w.admin.post('/api/v1/corp/create', { name: `${code} ${name}`, code, is_public: true })).body.data.id as string;
    const created = await w.admin.post('/api/v1/model/create', { corp, name, model: name, type: 1, is_public: true, is_enable_model_agent: true, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 } });
    if (created.body.code !== 0) throw new Error(created.body.message);
    const made = await w.admin.post('/api/v1/model/agent/create', { corp, name: `${name} agent`, base_url: w.mock.url, models: [created.body.data.id], key: `sk-mock-${name}-key`, ...agent });
    if (made.body.code !== 0) throw new Error(made.body.message);
  }

  beforeAll(async () => {
    w = await world(dialect);
    await addModel('Anthropic', 'claude-test');
    await addModel('OpenAI', 'native-test', { wire_api: 'responses' });
    const other = await signedIn(w.server, 'user', `resp-other-${dialect}@example.com`);
    const app = await other.post('/api/v1/app/create', { name: 'Other', is_create_key: true });
    await settled(w);
    stranger = new OpenAI({ apiKey: app.body.data.key, baseURL: `${w.server.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => w?.close());
  beforeEach(() => {
    w.mock.faults.clear();
    w.mock.requests.length = 0;
  });

  it('answers a Response object from a chat upstream, billed and logged like chat', async () => {
    await w.flush();
    const before = await w.quotaOf(w.user.userId);
    const r = await w.openai.responses.create({ model: 'gpt-test', input: 'ping', instructions: 'Be brief.' });
    const text = answer('gpt-test', 'ping');
    expect(r).toMatchObject({ object: 'response', status: 'completed', model: 'gpt-test', instructions: 'Be brief.', store: true, error: null });
    expect(r.id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(r.output_text).toBe(text);
    expect(r.output[0]).toMatchObject({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] });
    // The chat upstream saw the instructions as the system message.
    expect(w.mock.requests[0]).toMatchObject({ path: '/v1/chat/completions', body: { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'ping' }] } });
    const prompt = tokens('Be brief.\nping');
    expect(r.usage).toMatchObject({ input_tokens: prompt, output_tokens: tokens(text), total_tokens: prompt + tokens(text), input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } });
    const log = await lastLog();
    expect(log).toMatchObject({ endpoint: '/v1/responses', status: 1, model: 'gpt-test', prompt_tokens: prompt, completion_tokens: tokens(text), total_price: prompt + tokens(text) * 2, stream: 0 });
    expect(await w.quotaOf(w.user.userId)).toBe(before - log.total_price);
  });

  it('streams the full event sequence and completes with the billed usage', async () => {
    await w.flush();
    const before = await w.quotaOf(w.user.userId);
    const stream = await w.openai.responses.create({ model: 'gpt-test', input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi there' }] }], stream: true });
    const types: string[] = [];
    const seqs: number[] = [];
    let text = '';
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      seqs.push(event.sequence_number);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(text).toBe(answer('gpt-test', 'hi there'));
    expect(seqs).toEqual(seqs.map((_, i) => i));
    const distinct = types.filter((t, i) => t !== types[i - 1]);
    expect(distinct).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(completed).toMatchObject({ status: 'completed', output: [{ type: 'message', content: [{ type: 'output_text', text }] }], usage: { input_tokens: 2, output_tokens: tokens(text) } });
    const log = await lastLog();
    expect(log).toMatchObject({ endpoint: '/v1/responses', stream: 1, status: 1, total_price: 2 + tokens(text) * 2 });
    expect(await w.quotaOf(w.user.userId)).toBe(before - log.total_price);
    // The SDK's stream helper reads the same events into a final response.
    const final = await w.openai.responses.stream({ model: 'gpt-test', input: 'again' }).finalResponse();
    expect(final.output_text).toBe(answer('gpt-test', 'again'));
  });

  it('calls function tools and continues with previous_response_id over two turns', async () => {
    const first = await w.openai.responses.create({ model: 'gpt-test', input: 'What is the weather in Paris?', tools: [weather] });
    const call = first.output.find((o) => o.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', status: 'completed' });
    if (call?.type !== 'function_call') throw new Error('no call');
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris' });
    expect(w.mock.requests[0]!.body).toMatchObject({ tools: [{ type: 'function', function: { name: 'get_weather', parameters: weather.parameters } }] });
    const second = await w.openai.responses.create({ model: 'gpt-test', previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"temp":21}' }] });
    expect(second.previous_response_id).toBe(first.id);
    expect(second.output_text).toBe(answer('gpt-test', '{"temp":21}'));
    // The upstream got the whole conversation: the question, the call, its output.
    expect(w.mock.requests[1]!.body).toMatchObject({
      messages: [
        // The earlier turn as stored (content as parts, as input_items lists it).
        { role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] },
        { role: 'assistant', content: null, tool_calls: [{ id: call.call_id, type: 'function', function: { name: 'get_weather', arguments: call.arguments } }] },
        { role: 'tool', tool_call_id: call.call_id, content: '{"temp":21}' },
      ],
    });
  });

  it('streams a function call as argument deltas', async () => {
    const stream = await w.openai.responses.create({ model: 'gpt-test', input: 'weather in Paris?', tools: [weather], stream: true });
    let args = '';
    let done: OpenAI.Responses.ResponseOutputItem | undefined;
    for await (const event of stream) {
      if (event.type === 'response.function_call_arguments.delta') args += event.delta;
      if (event.type === 'response.output_item.done') done = event.item;
    }
    expect(JSON.parse(args)).toEqual({ city: 'Paris' });
    expect(done).toMatchObject({ type: 'function_call', name: 'get_weather', arguments: args, status: 'completed' });
  });

  it('keeps stored responses for their owner: GET, input_items, DELETE', async () => {
    const r = await w.openai.responses.create({ model: 'gpt-test', input: [{ role: 'user', content: 'one' }, { role: 'assistant', content: 'two' }, { role: 'user', content: 'three' }] });
    const got = await w.openai.responses.retrieve(r.id);
    expect(got).toMatchObject({ id: r.id, output: r.output, usage: r.usage });
    const items = await w.openai.responses.inputItems.list(r.id, { order: 'asc' });
    expect(items.data.map((i) => (i.type === 'message' ? i.role : i.type))).toEqual(['user', 'assistant', 'user']);
    expect(items.data.every((i) => typeof i.id === 'string' && i.id.startsWith('msg_'))).toBe(true);
    const newestFirst = await w.openai.responses.inputItems.list(r.id, { limit: 2 });
    expect(newestFirst.data).toEqual(items.data.slice().reverse().slice(0, 2));
    // Another account's key sees nothing, and cannot delete or continue it.
    await expect(stranger.responses.retrieve(r.id)).rejects.toMatchObject({ status: 404 });
    await expect(stranger.responses.delete(r.id)).rejects.toMatchObject({ status: 404 });
    await expect(stranger.responses.create({ model: 'gpt-test', input: 'x', previous_response_id: r.id })).rejects.toMatchObject({ status: 400, param: 'previous_response_id' });
    await w.openai.responses.delete(r.id);
    await expect(w.openai.responses.retrieve(r.id)).rejects.toMatchObject({ status: 404 });
    // store: false keeps nothing.
    const unstored = await w.openai.responses.create({ model: 'gpt-test', input: 'secret', store: false });
    expect(unstored).toMatchObject({ store: false });
    await expect(w.openai.responses.retrieve(unstored.id)).rejects.toMatchObject({ status: 404 });
  });

  it('forgets stored responses past the retention of the system config', async () => {
    const r = await w.openai.responses.create({ model: 'gpt-test', input: 'old news' });
    const db = w.server.app.ctx.db;
    await db.updateTable('stored_responses').set({ created_at: Date.now() - 31 * 86_400_000 }).where('id', '=', r.id).execute();
    await expect(w.openai.responses.retrieve(r.id)).rejects.toMatchObject({ status: 404 });
    await expect(w.openai.responses.create({ model: 'gpt-test', input: 'x', previous_response_id: r.id })).rejects.toMatchObject({ status: 400 });
    const { housekeep } = await import('../src/jobs/housekeeping');
    expect((await housekeep(w.server.app.ctx)).responses).toBeGreaterThanOrEqual(1);
    expect(await db.selectFrom('stored_responses').select('id').where('id', '=', r.id).executeTakeFirst()).toBeUndefined();
  });

  it('maps text.format json_schema, reasoning and max_output_tokens onto the chat request', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    await w.openai.responses.create({ model: 'gpt-test', input: 'x', max_output_tokens: 64, reasoning: { effort: 'low' }, text: { format: { type: 'json_schema', name: 'place', schema, strict: true } } });
    expect(w.mock.requests[0]!.body).toMatchObject({ max_completion_tokens: 64, reasoning_effort: 'low', response_format: { type: 'json_schema', json_schema: { name: 'place', schema, strict: true } } });
  });

  it('serves a Claude-family model through the conversion core', async () => {
    const r = await w.openai.responses.create({ model: 'claude-test', input: 'hello claude', instructions: 'Be kind.' });
    expect(r.output_text).toBe(answer('claude-test', 'hello claude'));
    expect(w.mock.requests[0]).toMatchObject({ path: '/v1/messages', body: { system: 'Be kind.' } });
    expect(r.usage?.input_tokens).toBe(tokens('Be kind.\nhello claude'));
  });

  it('passes a request as is to an agent whose upstream speaks Responses, keeping the chain itself', async () => {
    await w.flush();
    const before = await w.quotaOf(w.user.userId);
    const first = await w.openai.responses.create({ model: 'native-test', input: 'first turn', metadata: { topic: 'test' } });
    expect(first.id).toMatch(/^resp_/);
    expect(first.model).toBe('native-test');
    expect(first.output_text).toContain('first turn');
    expect(w.mock.requests[0]).toMatchObject({ path: '/v1/responses', body: { model: 'native-test', input: 'first turn', store: false, metadata: { topic: 'test' } } });
    const log = await lastLog();
    expect(log).toMatchObject({ endpoint: '/v1/responses', status: 1, prompt_tokens: first.usage!.input_tokens, completion_tokens: first.usage!.output_tokens });
    expect(await w.quotaOf(w.user.userId)).toBe(before - log.total_price);
    const stream = await w.openai.responses.create({ model: 'native-test', input: 'second turn', previous_response_id: first.id, stream: true });
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) if (event.type === 'response.completed') completed = event.response;
    expect(completed).toMatchObject({ model: 'native-test', previous_response_id: first.id, status: 'completed' });
    // The upstream keeps nothing: it got the earlier turn as items, without ids or previous_response_id.
    const sent = w.mock.requests[1]!.body as Record<string, unknown>;
    expect(sent.previous_response_id).toBeUndefined();
    expect(sent.input).toMatchObject([{ role: 'user', content: [{ type: 'input_text', text: 'first turn' }] }, { type: 'message', role: 'assistant' }, { role: 'user', content: 'second turn' }]);
    expect(JSON.stringify(sent.input)).not.toContain('"id"');
    expect((await w.openai.responses.retrieve(completed!.id)).output).toEqual(completed!.output);
  });

  it('ends a native stream that breaks midway with an error event, billed for what was sent and stored nowhere', async () => {
    await w.flush();
    const before = await w.quotaOf(w.user.userId);
    const stream = await w.openai.responses.create({ model: 'native-test', input: 'break [[mock:chunks=6]] [[mock:fail_after=2]]', stream: true });
    const types: string[] = [];
    let id = '';
    await expect(
      (async () => {
        for await (const event of stream) {
          types.push(event.type);
          if (event.type === 'response.created') id = event.response.id;
        }
      })(),
    ).rejects.toThrow(/stream broke/);
    expect(types).toContain('response.output_text.delta');
    expect(types).not.toContain('response.completed');
    const log = await lastLog();
    expect(log).toMatchObject({ endpoint: '/v1/responses', status: -1, stream: 1 });
    expect(log.err_msg).toContain('stream broke');
    expect(log.total_price).toBeGreaterThan(0);
    expect(await w.quotaOf(w.user.userId)).toBe(before - log.total_price);
    await expect(w.openai.responses.retrieve(id)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses bad input with the field at fault, and features a chat upstream cannot do', async () => {
    const post = (body: unknown) => fetch(`${w.server.url}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    for (const [body, param] of [
      [{ input: 'x' }, 'model'],
      [{ model: 'gpt-test' }, 'input'],
      [{ model: 'gpt-test', input: 5 }, 'input'],
      [{ model: 'gpt-test', input: [{ role: 'robot', content: 'x' }] }, 'input[0].role'],
      [{ model: 'gpt-test', input: [{ type: 'function_call', call_id: 1 }] }, 'input[0].call_id'],
      [{ model: 'gpt-test', input: [{ type: 'item_reference', id: 'msg_1' }] }, 'input[0]'],
      [{ model: 'gpt-test', input: 'x', max_output_tokens: -1 }, 'max_output_tokens'],
      [{ model: 'gpt-test', input: 'x', background: true }, 'background'],
      [{ model: 'gpt-test', input: 'x', previous_response_id: 'resp_nope' }, 'previous_response_id'],
    ] as const) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { error: { param: string } }).error.param).toBe(param);
    }
    await expect(w.openai.responses.create({ model: 'gpt-test', input: 'x', tools: [{ type: 'web_search' }] })).rejects.toMatchObject({ status: 400, message: expect.stringContaining('web_search') });
    expect(w.mock.requests).toHaveLength(0);
    const unknown = await fetch(`${w.server.url}/v1/responses/resp_x/nothing`, { headers: { authorization: `Bearer ${w.key}` } });
    expect(unknown.status).toBe(404);
    await expect(w.openai.responses.retrieve('resp_missing')).rejects.toMatchObject({ status: 404 });
  });

  it('ends with every balance adding up to its records (ledger verifier)', () => expectNoDrift(w.server));
});
