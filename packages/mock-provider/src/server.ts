// The mock upstream: routes requests of the three families, applies faults, records what it saw.
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicError, countMessageTokens, messages } from './anthropic';
import { FaultBook, parseDirectives, type Fault, type KeyFault } from './faults';
import * as extras from './extras';
import { countGeminiTokens, geminiError, geminiModels, generateContent } from './gemini';
import { apiKey, readBody, sendJson, sleep } from './http';
import * as openai from './openai';
import { createResponse, responseNotFound } from './responses';
import { pollTask, submitTask, TaskBook } from './tasks';

interface RecordedRequest {
  method: string;
  path: string;
  key: string;
  model: string;
  body: unknown;
  /** As received (lower-case names): what a gateway forwards, e.g. anthropic-version / anthropic-beta. */
  headers: IncomingHttpHeaders;
  at: number;
}

export interface MockProvider {
  url: string;
  port: number;
  faults: FaultBook;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface MockOptions {
  port?: number;
  host?: string;
  /** Keep the last N requests for assertions (0 = none, e.g. in the benchmark). */
  record?: number;
  /** Model ids served by GET /v1/models. */
  models?: string[];
}

type Family = 'openai' | 'anthropic' | 'gemini';

function errorFor(family: Family, res: ServerResponse, status: number, message: string, code?: string) {
  if (family === 'anthropic') anthropicError(res, status, message);
  else if (family === 'gemini') geminiError(res, status, message);
  else openai.openaiError(res, status, message, code);
}

/** Applies delay, timeout, reset and status faults; true when the request was answered (or dropped). */
async function applyFault(family: Family, req: IncomingMessage, res: ServerResponse, fault: Fault): Promise<boolean> {
  if (fault.delay) await sleep(fault.delay);
  if (fault.timeout) {
    // Hold the request open until the client gives up.
    await new Promise<void>((resolve) => req.socket.once('close', () => resolve()));
    return true;
  }
  if (fault.reset) {
    req.socket.destroy();
    return true;
  }
  if (fault.status && fault.status >= 400) {
    // Set before the answer's writeHead, which merges them.
    for (const [name, value] of Object.entries(fault.headers ?? {})) res.setHeader(name, value);
    if (fault.retry_after !== undefined) res.setHeader('retry-after', String(fault.retry_after));
    if (fault.retry_after_ms !== undefined) res.setHeader('retry-after-ms', String(fault.retry_after_ms));
    errorFor(family, res, fault.status, fault.error ?? `mock error ${fault.status}`, fault.code);
    return true;
  }
  return false;
}

export async function startMockProvider(opts: MockOptions = {}): Promise<MockProvider> {
  const faults = new FaultBook();
  const tasks = new TaskBook();
  const requests: RecordedRequest[] = [];
  const keep = opts.record ?? 1000;
  const modelIds = opts.models ?? ['gpt-4o-mini', 'gpt-4o', 'claude-3-5-sonnet', 'gemini-1.5-flash', 'text-embedding-3-small'];

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://mock');
    const path = url.pathname;
    const raw = req.method === 'POST' || req.method === 'PUT' ? await readBody(req) : Buffer.alloc(0);

    // Control API for tests.
    if (path === '/__mock/faults') {
      if (req.method === 'DELETE') faults.clear();
      else faults.add(JSON.parse(raw.toString('utf8')) as KeyFault);
      return sendJson(res, 200, { ok: true });
    }
    if (path === '/__mock/requests') {
      if (req.method === 'DELETE') requests.length = 0;
      return sendJson(res, 200, requests);
    }
    if (path === '/health') return sendJson(res, 200, { status: 'ok' });

    const multipart = String(req.headers['content-type'] ?? '').startsWith('multipart/');
    const form = multipart ? extras.readForm(raw, String(req.headers['content-type'])) : undefined;
    let body: Record<string, any> = {};
    if (raw.length && !multipart) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return openai.openaiError(res, 400, 'We could not parse the JSON body of your request.');
      }
    }
    const gemini = /^\/v1(?:beta)?\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(path);
    const azure = /^\/openai\/deployments\/([^/]+)\/(.+)$/.exec(path);
    const family: Family = gemini || path.startsWith('/v1beta/') ? 'gemini' : path === '/v1/messages' || path === '/v1/messages/count_tokens' ? 'anthropic' : 'openai';
    // A task poll carries no body: it is matched (and recorded) by the task's model.
    const taskId = req.method === 'GET' ? /^\/v1\/tasks\/([^/]+)$/.exec(path)?.[1] : undefined;
    const model = gemini?.[1] ?? azure?.[1] ?? (taskId ? (tasks.get(taskId)?.model ?? '') : String(body.model ?? form?.fields.model ?? (multipart ? 'whisper-1' : '')));
    const key = apiKey(req, url);
    if (keep > 0) {
      requests.push({ method: req.method ?? 'GET', path, key, model, body: multipart ? { bytes: raw.length, ...form } : body, headers: req.headers, at: Date.now() });
      if (requests.length > keep) requests.splice(0, requests.length - keep);
    }
    if (!key) return errorFor(family, res, 401, 'Missing API key', 'invalid_api_key');
    // Like Anthropic's API, which refuses a request that does not say which version it speaks.
    if (family === 'anthropic' && !req.headers['anthropic-version']) return anthropicError(res, 400, 'anthropic-version: header is required');

    const promptText = JSON.stringify(body.messages ?? body.contents ?? body.prompt ?? body.input ?? body.text ?? '');
    const fault: Fault = { ...faults.take(key, model), ...parseDirectives(promptText) };
    if (await applyFault(family, req, res, fault)) return;

    if (gemini?.[2] === 'countTokens') return countGeminiTokens(res, body);
    if (gemini) return generateContent(res, model, body, fault, gemini[2] === 'streamGenerateContent');
    // Azure's v1 API (`/openai/v1/…`) is OpenAI's paths under /openai; the mock stores no response.
    const stored = /^(?:\/openai)?\/v1\/responses\/([^/]+)/.exec(path);
    if (stored) return responseNotFound(res, stored[1]!);
    if (taskId) return pollTask(res, tasks, taskId, `http://${req.headers.host ?? '127.0.0.1'}`);
    const endpoint = azure ? `/v1/${azure[2]}` : path;
    if (azure) body.model = model;
    switch (`${req.method} ${endpoint}`) {
      case 'POST /v1/responses':
      case 'POST /openai/v1/responses':
        return createResponse(res, body, fault);
      case 'POST /v1/chat/completions':
        return openai.chatCompletion(res, body, fault);
      case 'POST /v1/completions':
        return openai.completion(res, body, fault);
      case 'POST /v1/embeddings':
        return openai.embeddings(res, body);
      case 'POST /v1/images/generations':
        return openai.images(res, body);
      case 'POST /v1/audio/speech':
        return openai.speech(res, body);
      case 'POST /v1/audio/transcriptions':
        return openai.transcription(res, raw.length);
      case 'POST /v1/audio/translations':
        return extras.translation(res, raw.length);
      case 'POST /v1/images/edits':
        return extras.imageEdits(res, form ?? { fields: {}, files: {} });
      case 'POST /v1/rerank':
        return extras.rerank(res, body, fault);
      case 'POST /v1/moderations':
        return openai.moderation(res, body);
      case 'POST /v1/tasks':
        return submitTask(res, tasks, body, fault);
      case 'POST /v1/messages':
        return messages(res, body, fault);
      case 'POST /v1/messages/count_tokens':
        return countMessageTokens(res, body);
      case 'GET /v1/models':
        return openai.models(res, modelIds);
      case 'GET /v1beta/models':
        return geminiModels(res, modelIds);
      default:
        return errorFor(family, res, 404, `Unknown endpoint ${req.method} ${path}`, 'unknown_url');
    }
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(err), type: 'server_error' } });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    faults,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
