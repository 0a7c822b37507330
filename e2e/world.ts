// A small priced world for the gateway-driven specs (logs, tasks, dashboard), set up through the console
// API as an admin would: a corp, a model of the given type behind a model agent pointing at the mock
// provider (two upstream keys), a public group selling it at a discount, a user with quota and a password,
// and an app key.
import { expect } from '@playwright/test';
import OpenAI from 'openai';
import { BASE_URL, E2E_ADMIN_PASSWORD, E2E_MOCK_URL } from './env';

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/**
 * A console call as a signed-in script makes it: bearer token plus the double-submit XSRF pair the
 * server checks on signed-in writes (any value, as long as cookie and header agree).
 */
export async function consoleCall<T = unknown>(path: string, body: object, token?: string, method: 'GET' | 'POST' = 'POST'): Promise<Envelope<T>> {
  const res = await fetch(`${BASE_URL}/api/v1${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      cookie: 'XSRF-TOKEN=e2e',
      'x-xsrf-token': 'e2e',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: method === 'POST' ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as Envelope<T>;
}

export async function ok<T>(path: string, body: object, token?: string, method: 'GET' | 'POST' = 'POST'): Promise<T> {
  const res = await consoleCall<T>(path, body, token, method);
  expect(res.code, `${path}: ${res.message}`).toBe(0);
  return res.data;
}

export const adminToken = async () =>
  (await ok<{ token: string }>('/auth/login', { account: 'admin', password: E2E_ADMIN_PASSWORD, channel: 'admin', method: 'account' })).token;

export interface World {
  admin: string;
  /** Corp id, for more models of the same provider. */
  corp: string;
  user: { token: string; userId: number; account: string; password: string };
  corpName: string;
  /** The model's name (what clients request and logs record). */
  model: string;
  agentName: string;
  groupName: string;
  /** Group discount in percent. */
  discount: number;
  appId: number;
  key: string;
  openai: OpenAI;
}

export interface WorldOptions {
  tag: string;
  /** Core ModelType; text (1) by default. */
  type?: number;
  /** Price blocks of the model (`text_quota`, `digital_human_quota`, …). */
  quotas: Record<string, unknown>;
  discount?: number;
  /** The user's opening quota in units. */
  quota?: number;
}

export async function createWorld({ tag, type = 1, quotas, discount = 80, quota = 5_000_000 }: WorldOptions): Promise<World> {
  const admin = await adminToken();
  const corpName = `E2E Corp ${tag}`;
  const corp = (await ok<{ id: string }>('/corp/create', { name: corpName, code: 'OpenAI', is_public: true }, admin)).id;
  const model = `e2e-${tag}`;
  const modelId = (await ok<{ id: string }>('/model/create', { corp, name: model, model, type, is_public: true, is_enable_model_agent: true, ...quotas }, admin)).id;
  const agentName = `Mock agent ${tag}`;
  // Any key text is accepted by the mock; two keys let the gateway retry on the second.
  await ok('/model/agent/create', { corp, name: agentName, base_url: `${E2E_MOCK_URL}/v1`, models: [modelId], key: `sk-e2e-${tag}-one\nsk-e2e-${tag}-two`, lb_strategy: 1 }, admin);
  const groupName = `E2E Group ${tag}`;
  await ok('/group/create', { name: groupName, discount, models: [modelId], is_public: true, weight: 1 }, admin);

  const account = `gw_${tag}`;
  const password = 'Calls#e2e123';
  await ok('/admin/user/create', { account, name: `Caller-${tag}`, email: `${account}@e2e.test`, password, quota }, admin);
  const userId = (await ok<{ items: { user_id: number }[] }>('/admin/user/page', { current: 1, pageSize: 20, account }, admin)).items[0]!.user_id;
  const token = (await ok<{ token: string }>('/auth/login', { account, password, channel: 'user', method: 'account' })).token;
  const app = await ok<{ app_id: number; key: string }>('/app/create', { name: `E2E app ${tag}`, is_create_key: true }, token);

  const openai = new OpenAI({ apiKey: app.key, baseURL: `${BASE_URL}/v1`, maxRetries: 0 });
  // The gateway follows console writes through its change bus: wait until it knows the key and the model.
  await expect(async () => {
    const models = await openai.models.list();
    expect(models.data.map((m) => m.id)).toContain(model);
  }).toPass({ timeout: 10_000 });
  return { admin, corp, user: { token, userId, account, password }, corpName, model, agentName, groupName, discount, appId: app.app_id, key: app.key, openai };
}

/** The trace id the gateway answered with (on a success or on an OpenAI SDK error). */
export function traceOf(headers: Headers | Record<string, string | undefined> | undefined): string {
  const value = headers instanceof Headers ? headers.get('x-trace-id') : headers?.['x-trace-id'];
  expect(value, 'x-trace-id header').toBeTruthy();
  return value!;
}
