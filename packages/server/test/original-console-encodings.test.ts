// Issue 15 part 9: the original Vue console (corp era) is a client. It sends numbers and booleans as
// strings, "" for an empty number or list, [] for a cleared date range and an idle forward config with
// an empty target. Its payloads, replayed over HTTP, succeed; garbage is still refused.
import { isMaskedKey, maskKey } from '@fastgate/core/key-mask';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORP, MODEL, seedCatalogue } from './app-fixtures';
import { admin, Client, dialects, signedIn, startServer, type TestServer } from './helpers';

/** The original's idle forward config: forwarding off, rule 1, no target. */
const idleForward = { forward_rule: '1', target_model: '', match_rule: [], target_models: [], keywords: [] };

describe('key masks', () => {
  it('keep the key length, as the original (first 10, last 5)', () => {
    const key = `sk-FastAPI${'a'.repeat(36)}bcdef`;
    expect(maskKey(key)).toBe(`sk-FastAPI${'*'.repeat(36)}bcdef`);
    expect(maskKey(key)).toHaveLength(key.length);
    expect(maskKey('sk-short-1234')).toBe('sk-sh******34');
    expect(isMaskedKey(maskKey(key))).toBe(true);
    expect(isMaskedKey(key)).toBe(false);
  });
});

describe.each(dialects)('the original console’s encodings on %s', (dialect) => {
  let server: TestServer;
  let a: Client;
  let user: Client & { userId: number };

  const ok = (body: { code: number; message: string }) => expect(body, body.message).toMatchObject({ code: 0 });
  const refused = (body: { code: number; message: string }, field: string) => {
    expect(body.code).not.toBe(0);
    expect(body.message).toContain(field);
  };

  beforeAll(async () => {
    server = await startServer(dialect);
    await seedCatalogue(server);
    a = await admin(server);
    user = await signedIn(server, 'user', 'encodings');
  });
  afterAll(() => server?.close());

  it('creates and updates a corp with is_public and status as strings', async () => {
    const created = (await a.post('/api/v1/corp/create', { name: 'Orig Corp', code: 'OrigCorp', sort: '3', is_public: 'false', status: '1', remark: '' })).body;
    ok(created);
    const id = created.data.id ?? created.data;
    ok((await a.post('/api/v1/corp/update', { id, name: 'Orig Corp', code: 'OrigCorp', sort: '', is_public: 'true', status: '2' })).body);
    const detail = (await a.get('/api/v1/corp/detail', { id })).body.data;
    expect(detail).toMatchObject({ is_public: true, status: 2 });
  });

  it('creates a model with type, lb_strategy, billing_method as strings and an idle forward config', async () => {
    const body = {
      corp: CORP,
      name: 'orig-model',
      model: 'orig-model',
      type: '1',
      is_public: 'true',
      lb_strategy: '1',
      is_enable_model_agent: 'false',
      is_enable_forward: 'false',
      forward_config: idleForward,
      is_enable_fallback: 'false',
      text_quota: { billing_method: '1', prompt_ratio: '1', completion_ratio: '2' },
      status: '1',
    };
    const created = (await a.post('/api/v1/model/create', body)).body;
    ok(created);
    const id = created.data.id ?? created.data;
    const detail = (await a.get('/api/v1/model/detail', { id })).body.data;
    expect(detail).toMatchObject({ type: 1, lb_strategy: 1, is_public: true, is_enable_forward: false, forward_config: null });
    ok((await a.post('/api/v1/model/update', { ...body, id, type: '7' })).body);
    expect((await a.get('/api/v1/model/detail', { id })).body.data.type).toBe(7);
  });

  it('creates a model with the body its create form sends (forwarding off: forward_rule "")', async () => {
    // Captured from the original's model create screen (price fields filled, agents off).
    const ratios = { billing_method: '1', prompt_ratio: 1, completion_ratio: 1, cached_ratio: 1 };
    const body = {
      corp: CORP, name: 'orig-form-model', model: 'orig-form-model', type: '1', base_url: '', path: '', remark: '',
      is_enable_preset_config: false, preset_config: { is_support_system_role: true, system_role_prompt: '', is_support_stream: true },
      text_quota: { billing_method: '1', prompt_ratio: 500, completion_ratio: 1000, cached_ratio: 250, prompt_price: 1, completion_price: 2, cached_price: 0.5 },
      image_quota: { billing_method: '1', generation_quotas: [], text_ratio: 1, input_ratio: 1, output_ratio: 1, cached_ratio: 1 },
      audio_quota: ratios,
      multimodal_quota: { billing_rule: '1', text_quota: ratios, vision_quotas: [], search_quotas: [] },
      realtime_quota: { text_quota: ratios, audio_quota: ratios },
      multimodal_audio_quota: { text_quota: ratios, audio_quota: ratios },
      midjourney_quotas: [], request_data_format: '1', response_data_format: '1', is_public: true, groups: [],
      is_enable_model_agent: false, lb_strategy: '1', model_agents: [],
      is_enable_forward: false,
      forward_config: { forward_rule: '', match_rule: [], target_model: '', decision_model: '', keywords: [], target_models: [] },
      is_enable_fallback: false, fallback_config: { model_agent: '', model: '' },
    };
    const created = (await a.post('/api/v1/model/create', body)).body;
    ok(created);
    const id = created.data.id ?? created.data;
    expect((await a.get('/api/v1/model/detail', { id })).body.data).toMatchObject({ is_enable_forward: false, forward_config: null });
    ok((await a.post('/api/v1/model/update', { ...body, id, forward_config: { ...body.forward_config, content_length: '' } })).body);
  });

  it('creates an agent and a group with numbers and booleans as strings', async () => {
    ok((await a.post('/api/v1/model/agent/create', { corp: CORP, name: 'orig-agent', base_url: 'https://up.example.com', weight: '10', lb_strategy: '2', is_never_disable: 'false', key: 'sk-orig-agent-key-0001', models: [MODEL], status: '1' })).body);
    const group = { name: 'orig-group', discount: '80', weight: '5', is_default: 'false', is_public: 'true', is_limit_quota: 'false', quota: '', is_enable_forward: 'false', forward_config: idleForward, models: [MODEL], status: '1' };
    // quota "" is no number: the original sends 0 there; the empty number is only the key's expiry minutes.
    ok((await a.post('/api/v1/group/create', { ...group, quota: '0' })).body);
  });

  it('creates a user with quota_type "1", an app for user_id "2" and a key with app_id "1"', async () => {
    ok((await a.post('/api/v1/admin/user/create', { name: 'orig', account: 'orig-user', email: '', password: 'secret123', quota: '500000', quota_type: '1', is_limit_quota: 'true', quota_warning: 'false', status: '1' })).body);
    const app = (await a.post('/api/v1/app/create', { user_id: String(user.userId), name: 'orig-app', is_limit_quota: 'false', quota: '0', is_bind_group: 'false', status: '1' })).body;
    ok(app);
    const appId = String(app.data.app_id);
    const key = (await user.post('/api/v1/app/create/key', { app_id: appId })).body.data.key as string;
    const settings = { app_id: appId, quota_expires_rule: '1', quota_expires_at: '', quota_expires_minutes: '', is_limit_quota: 'false', quota: '0', is_bind_group: 'false', status: '1' };
    ok((await user.post('/api/v1/app/key/config', { ...settings, key })).body);

    // The config form reads the key from the page (masked, as long as the key) and sends it back on update.
    const [row] = (await user.post('/api/v1/key/page', { type: '1', created_at: [], quota_expires_at: [] })).body.data.items;
    expect(row.key).toBe(maskKey(key));
    expect(row.key).toHaveLength(key.length);
    ok((await user.post('/api/v1/app/key/config', { ...settings, id: row.id, key: row.key, quota_expires_rule: '2', quota_expires_minutes: '60' })).body);
    expect((await user.post('/api/v1/key/page', { type: 1 })).body.data.items[0]).toMatchObject({ quota_expires_rule: 2, quota_expires_minutes: 60 });
    // A mask is no key to create with.
    refused((await user.post('/api/v1/app/key/config', { ...settings, key: row.key })).body, 'key');
  });

  it('gives a group without forwarding a config object its update form binds to, and takes it back', async () => {
    // The create body of the original's group form (forwarding off, rule picker at its default).
    const idle = { forward_rule: '1', match_rule: ['2'], target_model: '', decision_model: '', keywords: [], target_models: [] };
    const create = { name: 'orig-form-group', discount: 80, models: [MODEL], is_default: false, is_public: true, weight: 7, expires_at: '', remark: '', is_enable_model_agent: false, lb_strategy: '1', model_agents: [], is_limit_quota: false, is_enable_forward: false, forward_config: idle };
    ok((await a.post('/api/v1/group/create', create)).body);
    const [row] = (await a.post('/api/v1/group/page', { name: 'orig-form-group' })).body.data.items;
    const data = (await a.get('/api/v1/group/detail', { id: row.id })).body.data;
    // Its update screen copies data.forward_config and reads .forward_rule, .match_rule… from it: null left the screen blank.
    expect(data.forward_config).toMatchObject({ forward_rule: 1, target_model: '', keywords: [], target_models: [] });
    const f = data.forward_config;
    const update = { ...create, id: data.id, discount: Number((data.discount * 100).toFixed(2)), status: data.status, quota: data.quota, remark: 'updated', forward_config: { ...f, forward_rule: String(f.forward_rule), match_rule: f.match_rule.map(String) } };
    ok((await a.post('/api/v1/group/update', update)).body);
    expect((await a.get('/api/v1/group/detail', { id: row.id })).body.data).toMatchObject({ remark: 'updated', is_enable_forward: false });
  });

  it('sets a user’s permissions from lists the original splits out of empty text ([""])', async () => {
    const groupId = (await a.post('/api/v1/group/page', { name: 'orig-form-group' })).body.data.items[0].id;
    // Its permissions button sends `${record.models}`.split(',') for a user with no models: [""].
    ok((await a.post('/api/v1/admin/user/permissions', { user_id: String(user.userId), models: [''], groups: ['', groupId] })).body);
    const detail = (await a.post('/api/v1/admin/user/page', { user_id: String(user.userId) })).body.data.items[0];
    expect(detail).toMatchObject({ models: [], groups: [groupId] });
    refused((await a.post('/api/v1/admin/user/permissions', { user_id: String(user.userId), models: [' '], groups: [] })).body, 'models');
  });

  it('creates a site config with support_email_suffix ""', async () => {
    ok((await a.post('/api/v1/sys/site/create', { domain: 'orig.example.com', title: 'Orig', support_email_suffix: '', grant_quota: '0', quota_expires_at: '0', port: '0', status: '1' })).body);
  });

  it('reads pages with [] for every cleared date range', async () => {
    ok((await a.post('/api/v1/corp/page', { current: '1', pageSize: '10', updated_at: [], status: '0', is_public: '' })).body);
    ok((await a.post('/api/v1/model/page', { created_at: [], type: '0' })).body);
    ok((await a.post('/api/v1/app/page', { quota_expires_at: [], user_id: '' })).body);
    ok((await a.post('/api/v1/finance/bill/page', { stat_date: [] })).body);
  });

  it('still refuses what is no number, no integer, no boolean and no range', async () => {
    refused((await a.post('/api/v1/corp/create', { name: 'Bad', code: 'Bad', sort: 'abc' })).body, 'sort');
    refused((await a.post('/api/v1/corp/create', { name: 'Bad', code: 'Bad', sort: '1.5' })).body, 'sort');
    refused((await a.post('/api/v1/corp/create', { name: 'Bad', code: 'Bad', is_public: 'yes' })).body, 'is_public');
    refused((await a.post('/api/v1/model/create', { corp: CORP, name: 'bad', model: 'bad', type: '99' })).body, 'type');
    refused((await a.post('/api/v1/corp/page', { updated_at: ['2026-01-01'] })).body, 'updated_at');
    // Forwarding on needs its target.
    refused((await a.post('/api/v1/model/create', { corp: CORP, name: 'bad2', model: 'bad2', type: '1', is_enable_forward: 'true', forward_config: idleForward })).body, 'forward_config.target_model');
  });
});
