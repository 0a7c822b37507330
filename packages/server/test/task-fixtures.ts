// A world for async-task tests: the gateway world plus task models of the three kinds behind a model
// agent pointing at the mock provider, a discount group, and a second user (under a reseller) with its
// own key; helpers to submit and poll through the gateway and to run the polling job.
import type { GatewayTask } from '@fastgate/core/entities/task';
import { expect } from 'vitest';
import type { CallLogRow, TaskRow } from '../src/db/schema';
import { pollTasks } from '../src/jobs/tasks';
import { settled, world, type World } from './gateway-fixtures';
import { setQuota, signedIn, type Client, type TestDialect } from './helpers';

/** Unit prices of the task models: dh-test per second, dh-min per minute, ac-test per character, vsc-test per call. */
export const PER_SECOND = 1000;
export const PER_MINUTE = 600;
export const PER_CHARACTER = 7;
export const PER_CALL = 50_000;
/** vsc-test is billed through a group at 80 %. */
export const VSC_DISCOUNT = 0.8;

type OpenAIError = { message: string; type: string; code: string };
type TaskAnswer = Omit<GatewayTask, 'error'> & { error: (Partial<OpenAIError> & { message: string }) | null };

export interface TaskWorld extends World {
  reseller: Client & { userId: number };
  /** A user of `reseller`, with an app key of its own. */
  other: { client: Client & { userId: number }; key: string };
  submit(kind: string, body: unknown, key?: string): Promise<{ status: number; trace: string; body: TaskAnswer }>;
  poll(id: string, key?: string): Promise<{ status: number; body: TaskAnswer }>;
  row(taskId: string): Promise<TaskRow>;
  runJob(now?: number): Promise<unknown>;
  untilEnded(taskId: string, now?: number): Promise<TaskRow>;
  /** The user's stored quota once pending charges are written. */
  balance(userId?: number): Promise<number>;
  /** The call-log rows of a trace, by attempt. */
  logsOf(traceId: string): Promise<CallLogRow[]>;
}

export async function taskWorld(dialect: TestDialect): Promise<TaskWorld> {
  const w = await world(dialect, { quota: 10_000_000 });
  const db = () => w.server.app.ctx.db;
  const create = async (body: Record<string, unknown>) => {
    const r = await w.admin.post('/api/v1/model/create', { corp: w.corp, is_public: true, is_enable_model_agent: true, ...body });
    if (r.body.code !== 0) throw new Error(`model ${String(body.name)}: ${r.body.message}`);
    return r.body.data.id as string;
  };
  const models = [
    await create({ name: 'dh-test', model: 'dh-upstream', type: 1000, digital_human_quota: { fixed_quota: PER_SECOND, unit: 'second' } }),
    await create({ name: 'dh-min', model: 'dh-min', type: 1000, digital_human_quota: { fixed_quota: PER_MINUTE, unit: 'minute' } }),
    await create({ name: 'ac-test', model: 'ac-test', type: 1001, audio_clone_quota: { fixed_quota: PER_CHARACTER, unit: 'character' } }),
  ];
  const vsc = await create({ name: 'vsc-test', model: 'vsc-test', type: 1002, video_second_creation_quota: { fixed_quota: PER_CALL, unit: 'call' } });
  const agent = await w.admin.post('/api/v1/model/agent/create', { corp: w.corp, name: 'tasks', base_url: w.mock.url, models: [...models, vsc], key: 'sk-mock-task-key', lb_strategy: 1 });
  if (agent.body.code !== 0) throw new Error(`agent: ${agent.body.message}`);
  const group = await w.admin.post('/api/v1/group/create', { name: 'tasks-80', discount: 80, models: [vsc], is_public: true, weight: 10 });
  if (group.body.code !== 0) throw new Error(`group: ${group.body.message}`);

  const reseller = await signedIn(w.server, 'reseller', `task-reseller-${dialect}`);
  const client = await signedIn(w.server, 'user', `task-user-${dialect}@example.com`, { rid: reseller.userId });
  await setQuota(w.server, client.userId, 10_000_000);
  // Accounts made as fixtures bypass the console's change events: show both to the gateway.
  await w.server.app.gateway.snapshot.reload('users', [String(reseller.userId), String(client.userId)]);
  const app = await client.post('/api/v1/app/create', { name: 'Other tasks', is_create_key: true });
  if (app.body.code !== 0) throw new Error(`app: ${app.body.message}`);
  await settled(w);

  const row = (taskId: string) => db().selectFrom('tasks').selectAll().where('task_id', '=', taskId).executeTakeFirstOrThrow();
  const runJob = (now?: number) => pollTasks(w.server.app.ctx, w.server.app.gateway, now);
  return Object.assign(w, {
    reseller,
    other: { client, key: app.body.data.key as string },
    async submit(kind: string, body: unknown, key = w.key) {
      const res = await fetch(`${w.server.url}/v1/tasks/${kind}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: res.status, trace: res.headers.get('x-trace-id') ?? '', body: (await res.json()) as TaskAnswer };
    },
    async poll(id: string, key = w.key) {
      const res = await fetch(`${w.server.url}/v1/tasks/${id}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
      return { status: res.status, body: (await res.json()) as TaskAnswer };
    },
    row,
    runJob,
    /**
     * Runs the job until the task ends. The app's own 5-second run may take some of the polls, or hold
     * the task's lock for a moment, so this retries briefly instead of expecting one run to do it.
     */
    async untilEnded(taskId: string, now?: number): Promise<TaskRow> {
      for (let i = 0; i < 40; i++) {
        const t = await row(taskId);
        if (t.status !== 1 && t.status !== 2) {
          // Whoever ended it (this run or the app's own) writes the row first and queues its charge right
          // after: let that run reach the ledger before the caller reads a balance.
          await new Promise((r) => setTimeout(r, 25));
          return t;
        }
        if (i > 0) await new Promise((r) => setTimeout(r, 25));
        await runJob(now);
      }
      throw new Error(`task ${taskId} did not end`);
    },
    async balance(userId = w.user.userId) {
      await w.flush();
      return w.quotaOf(userId);
    },
    logsOf: (traceId: string) => db().selectFrom('call_logs').selectAll().where('trace_id', '=', traceId).orderBy('attempt').execute(),
  });
}

/** Sets the system config's digital-human task timeout (minutes; 0 = none). */
export async function setTaskTimeout(w: World, minutes: number): Promise<void> {
  const r = await w.admin.post('/api/v1/sys/config/update', { action: 'digital_human', digital_human: { task_timeout: minutes } });
  expect(r.body.code).toBe(0);
  await settled(w);
}
