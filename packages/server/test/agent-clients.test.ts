// The real clients people point at a gateway — the official SDKs, the AI SDK, the Agents SDK, LangChain
// and the coding CLIs (Codex, Claude Code, Gemini CLI) — against the real app fronting the mock over real
// HTTP, on models of every upstream family. Each call must answer what the mock said, and be billed and
// logged: the caller's quota falls by exactly the price of the call logs written for it, on the path the
// client used. README "Use it with…" shows the same setups.
import { createOpenAI } from '@ai-sdk/openai';
import Anthropic from '@anthropic-ai/sdk';
import { ChatAnthropic } from '@langchain/anthropic';
import type { AIMessageChunk } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { Agent, OpenAIProvider, Runner, tool } from '@openai/agents';
import { generateObject, generateText, streamText } from 'ai';
import OpenAI from 'openai';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dialects } from './helpers';
import { PROVIDER_KEYS, settled, world, type World } from './gateway-fixtures';
import { expectBilled, markBill, newCaller, type Caller } from './clients/caller';
import { cliArgs, cliHome, codexConfig, GEMINI_SETTINGS, installClis, runCli, type CliName } from './clients/cli';

/** The mock's answer starts so (packages/mock-provider/src/text.ts answerFor). */
const hello = (model: string) => `Hello from mock ${model}!`;

/** One model per upstream: the three families, and an OpenAI agent whose upstream speaks only Responses. */
const UPSTREAMS = [
  { model: 'gpt-test', corp: 'OpenAI', upstream: '/v1/chat/completions' },
  { model: 'claude-test', corp: 'Anthropic', upstream: '/v1/messages' },
  { model: 'gemini-test', corp: 'Google', upstream: '/v1beta/models/gemini-test:generateContent' },
  { model: 'gpt-wire-responses', corp: 'OpenAI', wire_api: 'responses', upstream: '/v1/responses' },
] as const;
const MODELS = UPSTREAMS.map((u) => u.model);

const WEATHER_QUESTION = "What's the weather in Paris?";
const weatherSchema = { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };

// Installing the CLIs (cached after the first time) overlaps with building the first world.
const clis = installClis();
// Reported by the CLI tests that await it, not as an unhandled rejection.
clis.catch(() => undefined);

it('README "Use it with…" shows the CLI setups this file runs', () => {
  const readme = fs.readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Use it with…'), readme.indexOf('## Console API'));
  expect(section).toContain(codexConfig('http://HOST:8080', 'MODEL'));
  expect(JSON.parse(/```json\n([\s\S]*?)```/.exec(section)![1]!)).toEqual(GEMINI_SETTINGS);
  const home = cliHome({ gateway: 'http://HOST:8080', model: 'MODEL', key: 'KEY' });
  home.cleanup();
  for (const cli of ['codex', 'claude', 'gemini'] as const) {
    expect(section).toContain(`${cli} ${cliArgs(cli, 'say hi', 'MODEL').map((a) => (a === 'say hi' ? '"say hi"' : a)).join(' ')}`);
    for (const [name, value] of Object.entries(home.env[cli])) if (!['HOME', 'TMPDIR', 'CODEX_HOME'].includes(name)) expect(section).toContain(`${name}=${value.replace(home.home, '~')}`);
  }
});

describe.each(dialects)('real clients against the gateway on %s', (dialect) => {
  let w: World;
  let caller: Caller;
  let openai: OpenAI;

  beforeAll(async () => {
    w = await world(dialect);
    const corps = new Map<string, string>([['OpenAI', w.corp]]);
    for (const u of UPSTREAMS.slice(1)) {
      if (!corps.has(u.corp)) corps.set(u.corp, (await w.admin.post('/api/v1/corp/create', { name: u.corp, code: u.corp, is_public: true })).body.data.id);
      const corp = corps.get(u.corp);
      const created = await w.admin.post('/api/v1/model/create', { corp, name: u.model, model: u.model, type: 1, is_public: true, is_enable_model_agent: true, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 } });
      if (created.body.code !== 0) throw new Error(`${u.model}: ${created.body.message}`);
      const agent = await w.admin.post('/api/v1/model/agent/create', { corp, name: `${u.model} agent`, base_url: w.mock.url, models: [created.body.data.id], key: `sk-mock-${u.model}-key`, ...('wire_api' in u ? { wire_api: u.wire_api } : {}) });
      if (agent.body.code !== 0) throw new Error(`${u.model} agent: ${agent.body.message}`);
    }
    await settled(w);
    caller = await newCaller(w);
    openai = new OpenAI({ apiKey: caller.key, baseURL: `${w.server.url}/v1`, maxRetries: 0 });
  }, 60_000);
  afterAll(() => w?.close());

  /** Runs `calls` and checks they were billed and logged for `model` on `path`. */
  async function billed<T>(expected: { path: string | RegExp; model: string; min?: number }, calls: () => Promise<T>): Promise<T> {
    const mark = await markBill(w, caller);
    const result = await calls();
    await expectBilled(w, caller, mark, expected);
    return result;
  }
  const upstreamPaths = (model: string) => w.mock.requests.filter((r) => r.model === model).map((r) => r.path);

  describe('openai SDK', () => {
    it.each(UPSTREAMS)('responses.create answers on $model through its upstream $upstream', async ({ model, upstream }) => {
      const r = await billed({ path: '/v1/responses', model }, () => openai.responses.create({ model, input: 'Say hi' }));
      expect(upstreamPaths(model).at(-1)).toBe(upstream);
      expect(r).toMatchObject({ object: 'response', status: 'completed', model });
      expect(r.output_text).toContain(hello(model));
      expect(r.usage!.input_tokens).toBeGreaterThan(0);
      expect(r.usage!.output_tokens).toBeGreaterThan(0);
    });

    it.each(MODELS)('responses.stream streams the full event sequence on %s', async (model) => {
      const types: string[] = [];
      const sequence: number[] = [];
      let text = '';
      const final = await billed({ path: '/v1/responses', model }, async () => {
        const stream = openai.responses.stream({ model, input: 'Stream to me' });
        for await (const event of stream) {
          types.push(event.type);
          sequence.push(event.sequence_number);
          if (event.type === 'response.output_text.delta') text += event.delta;
        }
        return stream.finalResponse();
      });
      expect(types[0]).toBe('response.created');
      expect(types.at(-1)).toBe('response.completed');
      expect(types).toEqual(expect.arrayContaining(['response.output_item.added', 'response.content_part.added', 'response.output_text.done', 'response.output_item.done']));
      expect(sequence).toEqual(sequence.map((_, i) => sequence[0]! + i));
      expect(text).toBe(final.output_text);
      expect(final.output_text).toContain(hello(model));
      expect(final.usage!.input_tokens).toBeGreaterThan(0);
    });

    it('calls a function tool and answers with its result over two turns', async () => {
      const model = 'gpt-test';
      const tools: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'get_weather', description: 'The weather of a city', parameters: weatherSchema, strict: true }];
      const first = await billed({ path: '/v1/responses', model }, () => openai.responses.create({ model, input: WEATHER_QUESTION, tools }));
      const call = first.output.find((item) => item.type === 'function_call');
      expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', call_id: expect.any(String) });
      expect(JSON.parse(call!.arguments)).toEqual({ city: 'Paris' });
      const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: WEATHER_QUESTION }, call!, { type: 'function_call_output', call_id: call!.call_id, output: '{"celsius":21}' }];
      const second = await billed({ path: '/v1/responses', model }, () => openai.responses.create({ model, input, tools }));
      expect(second.output_text).toContain(hello(model));
      expect(second.output_text).toContain('21');
      // The upstream saw the tool result tied to the call it answers.
      const last = w.mock.requests.at(-1)!.body as { messages: { role: string; tool_call_id?: string }[] };
      expect(last.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: call!.call_id });
    });

    it('continues a stored response with previous_response_id', async () => {
      const model = 'claude-test';
      const first = await openai.responses.create({ model, input: 'Remember the word pineapple.' });
      const second = await billed({ path: '/v1/responses', model }, () => openai.responses.create({ model, previous_response_id: first.id, input: 'Which word?' }));
      expect(second.previous_response_id).toBe(first.id);
      expect(second.output_text).toContain(hello(model));
      // The upstream got the whole conversation: the first turn, its answer, then the new one.
      const sent = JSON.stringify(w.mock.requests.at(-1)!.body);
      expect(sent).toContain('Remember the word pineapple.');
      expect(sent).toContain(first.output_text);
      expect(sent).toContain('Which word?');
    });

    it('retrieves a model', async () => {
      expect(await openai.models.retrieve('gemini-test')).toMatchObject({ id: 'gemini-test', object: 'model' });
      await expect(openai.models.retrieve('nope')).rejects.toMatchObject({ status: 404 });
    });
  });

  describe('@anthropic-ai/sdk', () => {
    const anthropic = () => new Anthropic({ apiKey: caller.key, baseURL: w.server.url, maxRetries: 0 });

    it('counts tokens without billing or logging', async () => {
      const mark = await markBill(w, caller);
      const { input_tokens } = await anthropic().messages.countTokens({ model: 'claude-test', messages: [{ role: 'user', content: 'How many tokens is this?' }] });
      expect(input_tokens).toBeGreaterThan(0);
      expect(await markBill(w, caller)).toEqual(mark);
    });

    it.each(MODELS)('messages.stream reports input tokens in message_start on %s', async (model) => {
      let started = -1;
      const mark = await markBill(w, caller);
      const stream = anthropic().messages.stream({ model, max_tokens: 100, messages: [{ role: 'user', content: 'Count my tokens, please' }] });
      for await (const event of stream) if (event.type === 'message_start') started = event.message.usage.input_tokens;
      const final = await stream.finalMessage();
      const [log] = await expectBilled(w, caller, mark, { path: '/v1/messages', model });
      expect(final.content).toEqual([expect.objectContaining({ type: 'text', text: expect.stringContaining(hello(model)) })]);
      // Before the first token: Anthropic's own count, or the gateway's when the upstream reports its
      // usage only at the end (chat streams); the final usage is the upstream's, the one billed.
      expect(started).toBeGreaterThan(0);
      if (model === 'claude-test') expect(started).toBe(final.usage.input_tokens);
      expect(final.usage.input_tokens).toBe(log!.prompt_tokens);
    });

    it.each(['gpt-test', 'claude-test'])('uses a tool over two turns on %s', async (model) => {
      const tools: Anthropic.Tool[] = [{ name: 'get_weather', description: 'The weather of a city', input_schema: weatherSchema }];
      const question = { role: 'user' as const, content: WEATHER_QUESTION };
      const first = await billed({ path: '/v1/messages', model }, () => anthropic().messages.create({ model, max_tokens: 100, tools, messages: [question] }));
      expect(first.stop_reason).toBe('tool_use');
      const use = first.content.find((b) => b.type === 'tool_use');
      expect(use).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
      const second = await billed({ path: '/v1/messages', model }, () =>
        anthropic().messages.create({ model, max_tokens: 100, tools, messages: [question, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use!.id, content: '{"celsius":21}' }] }] }),
      );
      expect(second.stop_reason).toBe('end_turn');
      expect(second.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining(hello(model)) });
    });
  });

  describe('AI SDK', () => {
    const provider = () => createOpenAI({ baseURL: `${w.server.url}/v1`, apiKey: caller.key });

    it('generateText through the Responses API (the default)', async () => {
      const { text, usage } = await billed({ path: '/v1/responses', model: 'gemini-test' }, () => generateText({ model: provider()('gemini-test'), prompt: 'Say hi', maxRetries: 0 }));
      expect(text).toContain(hello('gemini-test'));
      expect(usage.inputTokens).toBeGreaterThan(0);
      expect(upstreamPaths('gemini-test').at(-1)).toBe('/v1beta/models/gemini-test:generateContent');
    });

    it('streamText through the Responses API', async () => {
      let text = '';
      const usage = await billed({ path: '/v1/responses', model: 'claude-test' }, async () => {
        const result = streamText({ model: provider()('claude-test'), prompt: 'Stream to me', maxRetries: 0 });
        for await (const part of result.textStream) text += part;
        return result.usage;
      });
      expect(text).toContain(hello('claude-test'));
      expect(usage.inputTokens).toBeGreaterThan(0);
    });

    it('generateObject with a zod schema', async () => {
      // The mock answers the JSON it is told to (per upstream key), as a model following the schema would.
      for (const key of PROVIDER_KEYS) w.mock.faults.add({ key, model: 'gpt-test', reply: '{"city":"Paris","celsius":21}' });
      try {
        const { object } = await billed({ path: '/v1/responses', model: 'gpt-test' }, () =>
          generateObject({ model: provider()('gpt-test'), schema: z.object({ city: z.string(), celsius: z.number() }), prompt: 'The weather in Paris as JSON', maxRetries: 0 }),
        );
        expect(object).toEqual({ city: 'Paris', celsius: 21 });
        // The schema reached the upstream as chat's response_format.
        expect(w.mock.requests.at(-1)!.body).toMatchObject({ response_format: { type: 'json_schema', json_schema: { schema: { type: 'object', required: ['city', 'celsius'] } } } });
      } finally {
        w.mock.faults.clear();
      }
    });

    it('generateText through Chat Completions with openai.chat()', async () => {
      const { text } = await billed({ path: '/v1/chat/completions', model: 'gpt-test' }, () => generateText({ model: provider().chat('gpt-test'), prompt: 'Say hi', maxRetries: 0 }));
      expect(text).toContain(hello('gpt-test'));
    });
  });

  describe('OpenAI Agents SDK', () => {
    it('runs an agent with one function tool (Responses API, the default)', async () => {
      const cities: string[] = [];
      const getWeather = tool({
        name: 'get_weather',
        description: 'The weather of a city',
        parameters: z.object({ city: z.string() }),
        execute: async ({ city }) => {
          cities.push(city);
          return `${city}: 21 degrees`;
        },
      });
      const agent = new Agent({ name: 'Weather', instructions: 'Answer with the tool.', model: 'gpt-test', tools: [getWeather] });
      // A runner of its own: the SDK's default provider keeps the first client it was given.
      const runner = new Runner({ modelProvider: new OpenAIProvider({ baseURL: `${w.server.url}/v1`, apiKey: caller.key }), tracingDisabled: true });
      // Two model calls: the tool call, then the answer to its result.
      const result = await billed({ path: '/v1/responses', model: 'gpt-test', min: 2 }, () => runner.run(agent, WEATHER_QUESTION));
      expect(cities).toEqual(['Paris']);
      expect(result.finalOutput).toContain(hello('gpt-test'));
      expect(result.finalOutput).toContain('21 degrees');
    });
  });

  describe('LangChain', () => {
    it.each([true, false])('ChatOpenAI answers with useResponsesApi %s', async (useResponsesApi) => {
      const llm = new ChatOpenAI({ model: 'gemini-test', apiKey: caller.key, configuration: { baseURL: `${w.server.url}/v1` }, useResponsesApi, maxRetries: 0 });
      const message = await billed({ path: useResponsesApi ? '/v1/responses' : '/v1/chat/completions', model: 'gemini-test' }, () => llm.invoke('Say hi'));
      expect(message.text).toContain(hello('gemini-test'));
      expect(message.usage_metadata?.input_tokens).toBeGreaterThan(0);
    });

    it.each(['claude-test', 'gpt-test'])('ChatAnthropic streams with real input tokens on %s', async (model) => {
      const llm = new ChatAnthropic({ model, apiKey: caller.key, anthropicApiUrl: w.server.url, maxRetries: 0 });
      const final = await billed({ path: '/v1/messages', model }, async () => {
        let merged: AIMessageChunk | undefined;
        for await (const chunk of await llm.stream('Say hi')) merged = merged ? merged.concat(chunk) : chunk;
        return merged!;
      });
      expect(final.text).toContain(hello(model));
      expect(final.usage_metadata?.input_tokens).toBeGreaterThan(0);
    });
  });

  describe('coding CLIs, non-interactive', () => {
    /** Each CLI's ingress: what it calls, and so what the call log says. */
    const PATHS: Record<CliName, (model: string) => string | RegExp> = {
      codex: () => '/v1/responses',
      claude: () => '/v1/messages',
      gemini: (model) => `/v1beta/models/${model}:streamGenerateContent`,
    };
    const runs = (['codex', 'claude', 'gemini'] as const).flatMap((cli) => MODELS.map((model) => [cli, model] as const));
    let bins: Awaited<typeof clis>;
    // The first run on a machine downloads them (~260 MB).
    beforeAll(async () => {
      bins = await clis;
    }, 300_000);

    // Each run has its own caller, home and working folder, so they go in parallel.
    it.concurrent.each(runs)('%s answers on %s', async (cli, model) => {
      const own = await newCaller(w);
      const home = cliHome({ gateway: w.server.url, model, key: own.key });
      try {
        const mark = await markBill(w, own);
        const out = await runCli(bins[cli], cliArgs(cli, 'Say hi', model), { env: home.env[cli], cwd: home.cwd, timeoutMs: 40_000 });
        expect(out.stdout, `${cli} exit ${out.code}${out.timedOut ? ' (timed out)' : ''}: ${out.stderr.slice(-1500)}`).toContain(hello(model));
        expect(out.code).toBe(0);
        await expectBilled(w, own, mark, { path: PATHS[cli](model), model });
      } finally {
        home.cleanup();
      }
    }, 60_000);
  });
});
