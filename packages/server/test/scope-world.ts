// Two accounts under two resellers, for the authorisation matrix: user A under reseller R1 owns one
// record of every kind (app, app key, call logs and tasks of each kind, a deal record, a bill, a
// certification), R1 owns a group, a VIP level and a site config; user B under reseller R2 owns
// nothing. Every A-side name carries `marker`, so an answer that shows any of it to B or R2 is caught.
import { LOG_KINDS, LOG_KIND_TYPES, type LogKind } from '@fastgate/core/entities/call-log';
import { TASK_KINDS, type TaskKind } from '@fastgate/core/entities/task';
import type { Kysely } from 'kysely';
import { newId } from '../src/http/ids';
import { admin, Client, setFloor, signedIn, type TestServer } from './helpers';
import { callLog, insertLogs, pauseSchedule, runStats } from './stat-fixtures';

export type Who = 'anon' | 'admin' | 'r1' | 'r2' | 'a' | 'b';

export interface ScopeWorld {
  server: TestServer;
  clients: Record<Who, Client & { userId: number }>;
  /** Text every A-side and R1-side name contains. */
  marker: string;
  /** A's app key in plaintext (a secret of A that must never reach B or R2). */
  appKey: string;
  /** The admin's provider key in plaintext. */
  providerSecret: string;
  ids: {
    app: string;
    appId: number;
    appKey: string;
    userA: string;
    resellerR1: string;
    group: string;
    vip: string;
    site: string;
    cert: string;
    deal: string;
    bill: string;
    corp: string;
    model: string;
    agent: string;
    providerKey: string;
    /** R1's first audit row (creating its group). */
    audit: string;
    logs: Record<LogKind, { id: string; trace: string }>;
    tasks: Record<TaskKind, { id: string; taskId: string; trace: string }>;
  };
}

function check<T>(r: { body: { code: number; message: string; data: T } }, what: string): T {
  if (r.body.code !== 0) throw new Error(`${what}: ${r.body.message}`);
  return r.body.data;
}

export async function scopeWorld(server: TestServer): Promise<ScopeWorld> {
  const db = server.app.ctx.db as unknown as Kysely<any>;
  const tag = `q${Math.random().toString(36).slice(2, 7)}`;
  const marker = `${tag}alpha`;
  const adm = Object.assign(await admin(server), { userId: 1 });
  // The statistics job runs when the suite says (bills below), never in the middle of a comparison.
  await pauseSchedule(adm);
  const r1 = await signedIn(server, 'reseller', `${marker}-reseller`);
  // Its group below is priced under list: a floor that allows it (issue 13).
  await setFloor(server, r1.userId, 9000);
  const r2 = await signedIn(server, 'reseller', `${tag}beta-reseller`);
  const a = await signedIn(server, 'user', `${marker}-user@example.com`, { rid: r1.userId });
  const b = await signedIn(server, 'user', `${tag}beta-user@example.com`, { rid: r2.userId });
  const anon = Object.assign(new Client(server.url), { userId: 0 });

  // Admin records (the admin-only routes' targets). The provider key carries the marker too: no one but the admin may see it.
  const providerSecret = `sk-${marker}-provider-secret`;
  const corp = check(await adm.post('/api/v1/corp/create', { name: `${tag}-corp`, code: `${tag}-corp`, is_public: true }), 'corp').id as string;
  const model = check(await adm.post('/api/v1/model/create', { corp, name: `${tag}-model`, model: `${tag}-model`, type: 1, is_public: true }), 'model').id as string;
  const agent = check(await adm.post('/api/v1/model/agent/create', { corp, name: `${tag}-agent`, base_url: 'http://127.0.0.1:9/v1', models: [model], key: providerSecret, lb_strategy: 1 }), 'agent').id as string;
  const providerKey = (await db.selectFrom('provider_keys').select('id').executeTakeFirstOrThrow()).id as string;

  // R1's records.
  const group = check(await r1.post('/api/v1/group/create', { name: `${marker}-group`, discount: 90, models: [model], is_public: true, weight: 1 }), 'group').id as string;
  const vip = check(await r1.post('/api/v1/sys/vip/create', { name: `${marker}-vip` }), 'vip').id as string;
  const site = check(await r1.post('/api/v1/sys/site/create', { domain: `${marker}.example.com`, title: `${marker}-site` }), 'site').id as string;

  // A's records.
  // Models granted on A's app, key and account (what /model/permissions reads back).
  const created = check(await a.post('/api/v1/app/create', { name: `${marker}-app`, models: [model], is_create_key: true }), 'app') as { id: string; app_id: number; key: string };
  const appKey = (await db.selectFrom('app_keys').select(['id', 'key_mask']).where('app_id', '=', created.app_id).executeTakeFirstOrThrow()) as { id: string; key_mask: string };
  check(await a.post('/api/v1/app/key/config', { id: appKey.id, models: [model] }), 'key models');
  check(await adm.post('/api/v1/admin/user/permissions', { user_id: a.userId, models: [model] }), 'user models');
  const cert = check(await a.post('/api/v1/user/certification/create', { real_name: `${marker}-cert`, id_number: 'A1234567' }), 'cert').id as string;
  check(await adm.post('/api/v1/admin/user/recharge', { user_id: a.userId, quota: 5000, remark: `${marker}-deal` }), 'recharge');
  const deal = (await db.selectFrom('deal_records').select('id').where('user_id', '=', a.userId).executeTakeFirstOrThrow()).id as string;

  const now = Date.now();
  const logs = {} as ScopeWorld['ids']['logs'];
  const rows = LOG_KINDS.map((kind) => {
    const row = callLog({
      user_id: a.userId,
      rid: r1.userId,
      app_id: created.app_id,
      app_key_id: appKey.id,
      creator: appKey.key_mask,
      key_id: providerKey,
      type: LOG_KIND_TYPES[kind][0]!,
      trace_id: `${marker}${kind}`,
      model: `${marker}-model`,
      prompt: `${marker} prompt`,
      req_time: now,
      total_price: 10,
      prompt_tokens: 3,
    });
    logs[kind] = { id: row.id, trace: row.trace_id };
    return row;
  });
  await insertLogs(server, rows);
  await runStats(server);
  const bill = (await db.selectFrom('stat_user_day').select('id').where('user_id', '=', a.userId).executeTakeFirstOrThrow()).id as string;

  const tasks = {} as ScopeWorld['ids']['tasks'];
  for (const kind of TASK_KINDS) {
    const id = newId();
    tasks[kind] = { id, taskId: `${marker}-task-${kind}`, trace: `${marker}task${kind}` };
    await db
      .insertInto('tasks')
      .values({
        id, task_id: tasks[kind].taskId, kind, trace_id: tasks[kind].trace, user_id: a.userId, rid: r1.userId, app_id: created.app_id, app_key_id: appKey.id,
        creator: appKey.key_mask, model_id: model, model: `${marker}-model`, type: 1000, corp, model_agent_id: agent, key_id: providerKey, upstream_id: `${marker}-up`,
        people_id: `${marker}-people`, input: '{}', line_type: 1, audio_url: '', video_url: '', video_pic: '', video_time: 0, status: 3, polls: 0, reserved: 0,
        total_price: 0, err_msg: '', client_ip: '127.0.0.1', lock_until: 0, deadline: 0, settlement: '{}', completed_at: now, created_at: now, updated_at: now,
      })
      .execute();
  }

  const userRowId = async (userId: number) => (await db.selectFrom('users').select('id').where('user_id', '=', userId).executeTakeFirstOrThrow()).id as string;
  return {
    server,
    clients: { anon, admin: adm, r1, r2, a, b },
    marker,
    appKey: created.key,
    providerSecret,
    ids: {
      app: created.id, appId: created.app_id, appKey: appKey.id, userA: await userRowId(a.userId), resellerR1: await userRowId(r1.userId),
      group, vip, site, cert, deal, bill, corp, model, agent, providerKey, logs, tasks,
      audit: (await db.selectFrom('audit_logs').select('id').where('user_id', '=', r1.userId).orderBy('created_at').executeTakeFirstOrThrow()).id as string,
    },
  };
}
