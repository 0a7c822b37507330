// Hostile JSON nesting (issue 11, finding 7): 10,000 levels in `messages` or `tools` answered HTTP 500
// (a stack overflow in JSON.stringify). The depth is bounded when the body is parsed, on every gateway
// and console route, with each protocol's own error shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../src/http/json-body';
import { Client, startServer, type TestServer } from './helpers';

/** `levels` nested arrays around a string, as JSON text (built as text: the test must not recurse either). */
const nested = (levels: number) => `${'['.repeat(levels)}"x"${']'.repeat(levels)}`;

describe('JSON nesting limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite');
  });
  afterAll(async () => {
    await server?.close();
  });

  const send = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-whatever', ...headers }, body });

  it.each([
    ['/v1/chat/completions', (d: string) => `{"model":"m","messages":[{"role":"user","content":${d}}]}`],
    ['/v1/chat/completions', (d: string) => `{"model":"m","messages":[],"tools":[{"type":"function","function":{"name":"f","parameters":${d}}}]}`],
    ['/v1/completions', (d: string) => `{"model":"m","prompt":${d}}`],
    ['/v1/embeddings', (d: string) => `{"model":"m","input":${d}}`],
    ['/v1/tasks/video', (d: string) => `{"model":"m","input":${d}}`],
  ])('answers 400 in the OpenAI shape on %s', async (path, body) => {
    const res = await send(path, body(nested(10_000)));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { message: `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep.`, type: 'invalid_request_error', code: 'json_too_deep', param: null } });
  });

  it('answers 400 in the Anthropic shape on /v1/messages', async () => {
    const res = await send('/v1/messages', `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":${nested(10_000)}}]}`, { 'x-api-key': 'sk-x' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error).toMatchObject({ type: 'invalid_request_error' });
    expect(body.error.message).toContain('nested more than');
  });

  it('answers an envelope error on console routes, signed in or not', async () => {
    const anon = new Client(server.url);
    const r = await anon.raw('POST', '/api/v1/auth/login', `{"account":${nested(10_000)}}`);
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ code: 51, message: `请求体嵌套超过 ${MAX_JSON_DEPTH} 层`, data: null });
  });

  it('still takes bodies nested as deep as real ones get', async () => {
    const res = await send('/v1/chat/completions', `{"model":"m","messages":[{"role":"user","content":${nested(MAX_JSON_DEPTH - 4)}}]}`);
    // Past the parser: refused for the made-up key, not for the body.
    expect(res.status).toBe(401);
  });

  it('keeps serving after the attack', async () => {
    await Promise.all(Array.from({ length: 20 }, () => send('/v1/chat/completions', `{"messages":${nested(50_000)}}`)));
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  describe('prototype poisoning', () => {
    const chat = (extra: string, content = 'hi') => `{${extra}"model":"m","messages":[{"role":"user","content":${JSON.stringify(content)}}]}`;
    it.each([
      ['a __proto__ key', chat('"__proto__":{"polluted":1},')],
      ['a __proto__ key spelt with escapes', chat('"\\u005f\\u005Fproto__":{"polluted":1},')],
      ['a nested constructor.prototype', chat('"x":[{"constructor":{"prototype":{"polluted":1}}}],')],
      ['a constructor key spelt with an escape', chat('"constr\\u0075ctor":{"prototype":{"polluted":1}},')],
    ])('refuses %s as unparsable JSON', async (_label, body) => {
      const res = await send('/v1/chat/completions', body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'invalid_json', type: 'invalid_request_error' } });
    });

    it('refuses it on console routes too', async () => {
      const r = await new Client(server.url).raw('POST', '/api/v1/auth/login', '{"account":"a","\\u005f_proto__":{"isAdmin":true}}');
      expect(r.status).toBe(400);
    });

    it('takes the words in text, and a constructor that is no prototype carrier', async () => {
      for (const body of [chat('', 'class A { constructor() {} } // __proto__ and \\u0000'), chat('"constructor":"x",'), chat('"meta":{"constructor":{"name":"A"}},')]) {
        // Past the parser: refused for the made-up key, not for the body.
        expect((await send('/v1/chat/completions', body)).status).toBe(401);
      }
    });
  });
});
