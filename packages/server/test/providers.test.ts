// Each family's adapter against the mock upstream over real HTTP: build the request, send it with fetch,
// parse the answer (plain and streamed through readEvents), check text and usage.
import type { ProviderFamily } from '@fastgate/core/constants';
import { startMockProvider, type MockProvider } from '@fastgate/mock-provider/server';
import { countTokens } from '@fastgate/mock-provider/text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../src/gateway/sse';
import { providers } from '../src/providers/index';
import type { ChatRequest, Usage, UpstreamTarget } from '../src/providers/types';

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider({ record: 50 });
});
afterAll(() => mock.close());

const cases: { family: ProviderFamily; model: string; path: string; base?: (url: string) => string }[] = [
  { family: 'openai', model: 'gpt-4o-mini', path: '/v1/chat/completions' },
  { family: 'openai', model: 'gpt-4o', path: '/v1/chat/completions', base: (url) => `${url}/v1` },
  { family: 'azure', model: 'gpt4o-deploy', path: '/openai/deployments/gpt4o-deploy/chat/completions' },
  { family: 'anthropic', model: 'claude-3-5-sonnet', path: '/v1/messages' },
  { family: 'gemini', model: 'gemini-1.5-flash', path: '/v1beta/models/gemini-1.5-flash:generateContent' },
];

const PROMPT = 'Say hi';
const request = (stream: boolean, prompt = PROMPT): ChatRequest => ({ model: 'client-alias', messages: [{ role: 'user', content: prompt }], max_tokens: 64, stream });

function expectedUsage(model: string): Usage {
  const answer = `Hello from mock ${model}! You said: ${PROMPT}`;
  return { prompt_tokens: countTokens(PROMPT), completion_tokens: countTokens(answer), total_tokens: countTokens(PROMPT) + countTokens(answer) };
}

async function send(target: UpstreamTarget, family: ProviderFamily, req: ChatRequest): Promise<Response> {
  const up = providers[family].chat.buildRequest(target, req);
  return fetch(up.url, { method: 'POST', headers: up.headers, body: up.body });
}

describe.each(cases)('$family adapter against the mock ($model)', ({ family, model, path, base }) => {
  const target = (): UpstreamTarget => ({ baseUrl: base ? base(mock.url) : mock.url, path: '', key: `key-${family}`, model });
  const adapter = providers[family];

  it('answers a plain request', async () => {
    const res = await send(target(), family, request(false));
    expect(res.status).toBe(200);
    const { body, usage } = adapter.chat.parseResponse(await res.json());
    expect(body.choices[0]?.message.content).toBe(`Hello from mock ${model}! You said: ${PROMPT}`);
    expect(body.choices[0]?.finish_reason).toBe('stop');
    expect(usage).toEqual(expectedUsage(model));
    const seen = mock.requests.at(-1);
    expect(seen).toMatchObject({ path: path.replace(/\?.*/, ''), key: `key-${family}`, model });
  });

  it('answers a streamed request', async () => {
    const res = await send(target(), family, request(true));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const state: unknown = adapter.chat.newStreamState();
    let text = '';
    let usage: Usage | undefined;
    let finish: string | null = null;
    let done = false;
    for await (const event of readEvents(res.body as ReadableStream<Uint8Array>)) {
      const step = adapter.chat.parseStreamEvent(event, state);
      expect(step.error).toBeUndefined();
      for (const c of step.chunks) {
        text += c.choices[0]?.delta.content ?? '';
        finish = c.choices[0]?.finish_reason ?? finish;
      }
      if (step.usage) usage = { ...usage, ...step.usage };
      done ||= step.done === true;
    }
    expect(text).toBe(`Hello from mock ${model}! You said: ${PROMPT}`);
    expect(finish).toBe('stop');
    expect(done).toBe(true);
    expect(usage).toEqual(expectedUsage(model));
  });

  it('maps an upstream error', async () => {
    const res = await send(target(), family, request(false, 'boom [[mock:status=429]] [[mock:error=slow down]]'));
    expect(res.status).toBe(429);
    const err = adapter.mapError(res.status, await res.text());
    expect(err).toMatchObject({ status: 429, message: 'slow down' });
    expect(err.type).toMatch(/rate_limit/);
  });
});

describe('passthrough endpoints', () => {
  it.each(['openai', 'azure'] as const)('%s embeddings reach the mock', async (family) => {
    const target: UpstreamTarget = { baseUrl: mock.url, path: '', key: 'k', model: 'text-embedding-3-small' };
    const p = providers[family].passthrough?.(target, 'embeddings', 'application/json');
    expect(p).toBeDefined();
    const res = await fetch(p?.url ?? '', { method: 'POST', headers: p?.headers, body: JSON.stringify({ model: target.model, input: 'hello' }) });
    expect(res.status).toBe(200);
    const json = (await res.json()) as { data: unknown[]; usage: { prompt_tokens: number } };
    expect(json.data).toHaveLength(1);
    expect(json.usage.prompt_tokens).toBe(countTokens('hello'));
  });

  it('anthropic and gemini have none', () => {
    expect(providers.anthropic.passthrough).toBeUndefined();
    expect(providers.gemini.passthrough).toBeUndefined();
  });
});
