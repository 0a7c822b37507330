// Task polling (docs/SPEC.md §4.4 task status): every few seconds, claim the pending async tasks (1 queued,
// 2 synthesizing) nobody holds, ask the provider where each stands with the key that submitted it, and
// move it: → 1 / 2 while it runs, → 3 completed, -1 failed, -2 timed out past its deadline (system config
// digital_human.task_timeout). A claim is a conditional UPDATE of lock_until (system config
// task.lock_minutes), so instances and overlapping runs never poll one task at once; a poller that dies
// holding one gives it up when the lock runs out. Ends go through task-settlement.ts (exactly once).
import type { ProviderFamily } from '@fastgate/core/constants';
import { familyOfCorpCode } from '@fastgate/core/entities/corp';
import { TaskStatus } from '@fastgate/core/entities/task';
import { Cron } from 'croner';
import type { Ctx } from '../context';
import type { TaskRow } from '../db/schema';
import type { Gateway } from '../gateway/gateway';
import { readJson, withoutKey } from '../gateway/relay';
import type { SnapKey, Snapshot } from '../gateway/snapshot';
import { endTask } from '../gateway/task-settlement';
import { UpstreamFailure, type UpstreamReply } from '../gateway/upstream';
import { providers } from '../providers/index';
import type { TaskAdapter, UpstreamTarget } from '../providers/types';

const PENDING = [TaskStatus.Queued, TaskStatus.Synthesizing];
/** Tasks claimed per run, and polled at once. */
const BATCH = 100;
const CONCURRENCY = 8;
/** A poll is a small GET: it should not wait as long as a generation may (base.short_timeout). */
const POLL_TIMEOUT_MS = 30_000;

type Where = { target: UpstreamTarget; family: ProviderFamily; adapter: TaskAdapter; key: SnapKey } | { missing: string };

/** Where the task lives: its agent's (or model's) base URL and the key that submitted it. */
function whereIs(snapshot: Snapshot, task: TaskRow): Where {
  const key = snapshot.keys.get(task.key_id);
  if (!key) return { missing: 'the provider key that submitted this task no longer exists' };
  const model = snapshot.models.get(task.model_id);
  const agent = task.model_agent_id ? snapshot.agents.get(task.model_agent_id) : undefined;
  if (task.model_agent_id && !agent) return { missing: 'the model agent that ran this task no longer exists' };
  const baseUrl = agent?.base_url || model?.base_url;
  if (!baseUrl) return { missing: 'the model of this task no longer exists' };
  const corp = snapshot.corps.get(agent ? agent.corp : key.corp) ?? snapshot.corps.get(model?.corp ?? task.corp);
  const family = familyOfCorpCode(corp?.code ?? '');
  const adapter = providers[family].tasks;
  if (!adapter) return { missing: 'the provider of this task has no task API' };
  return { target: { baseUrl, path: '', key: key.key, model: '' }, family, adapter, key };
}

/** Polls one claimed task; true when it ended. */
async function pollOne(ctx: Ctx, gw: Gateway, task: TaskRow, now: number): Promise<boolean> {
  if (task.deadline > 0 && task.deadline <= now) {
    const minutes = Math.round((task.deadline - task.created_at) / 60_000);
    return endTask(ctx, gw, task, { status: TaskStatus.TimedOut, err_msg: `The task did not finish within ${minutes} minute(s).` }, now);
  }
  const where = whereIs(gw.snapshot, task);
  if ('missing' in where) return endTask(ctx, gw, task, { status: TaskStatus.Failed, err_msg: where.missing }, now);
  const counted = () => ctx.db.updateTable('tasks').set({ polls: task.polls + 1, updated_at: now }).where('id', '=', task.id).where('status', '=', task.status).execute();

  let res: UpstreamReply;
  try {
    res = await gw.upstream.send(where.adapter.poll(where.target, task.upstream_id), { timeoutMs: POLL_TIMEOUT_MS, method: 'GET' });
  } catch (err) {
    if (!(err instanceof UpstreamFailure)) throw err;
    // Unreachable or slow: the next run asks again (the deadline, when set, bounds the waiting).
    ctx.log.warn({ task: task.task_id, error: err.error.message }, 'polling an async task failed');
    await counted();
    return false;
  }
  if (res.status >= 400) {
    const text = withoutKey(where.key, await res.body.text().catch(() => ''));
    // The provider does not know the task (any more): it will never finish.
    if (res.status === 404) return endTask(ctx, gw, task, { status: TaskStatus.Failed, err_msg: 'The provider no longer knows this task.' }, now);
    ctx.log.warn({ task: task.task_id, status: res.status, error: providers[where.family].mapError(res.status, text).message }, 'polling an async task failed');
    await counted();
    return false;
  }
  const state = where.adapter.parseState(await readJson(res));
  if (!state) {
    ctx.log.warn({ task: task.task_id }, 'the provider answered a task poll with a body the gateway could not read');
    await counted();
    return false;
  }
  switch (state.status) {
    case 'queued':
    case 'processing': {
      const status = state.status === 'queued' ? TaskStatus.Queued : TaskStatus.Synthesizing;
      await ctx.db.updateTable('tasks').set({ status, polls: task.polls + 1, updated_at: now }).where('id', '=', task.id).where('status', '=', task.status).execute();
      return false;
    }
    case 'succeeded':
      // Whole seconds, rounded up: the stored duration is the one billed.
      return endTask(ctx, gw, task, { status: TaskStatus.Completed, audio_url: state.audio_url, video_url: state.video_url, video_pic: state.cover_url, video_time: Math.ceil(state.duration) }, now);
    case 'failed':
      return endTask(ctx, gw, task, { status: TaskStatus.Failed, err_msg: withoutKey(where.key, state.error) }, now);
  }
}

/** Claims, polls and releases one task; true when it ended, undefined when someone else holds it. */
async function claimAndPoll(ctx: Ctx, gw: Gateway, id: string, now: number, lockMs: number): Promise<boolean | undefined> {
  const lock = now + lockMs;
  // The claimed row comes back from the claim itself: a separate read could already see another
  // poller's end (whose lock had run out) and end the task a second time.
  const task = await ctx.db.updateTable('tasks').set({ lock_until: lock }).where('id', '=', id).where('status', 'in', PENDING).where('lock_until', '<', now).returningAll().executeTakeFirst();
  if (!task) return undefined;
  try {
    return await pollOne(ctx, gw, task, now);
  } finally {
    // Ours only: a lock that ran out may have been taken again since.
    await ctx.db.updateTable('tasks').set({ lock_until: 0 }).where('id', '=', id).where('lock_until', '=', lock).execute();
  }
}

/** One polling run over what is due at `now` (tests call it directly). */
export async function pollTasks(ctx: Ctx, gw: Gateway, now = Date.now()): Promise<{ polled: number; ended: number }> {
  const lockMs = Math.max(1, gw.snapshot.sys.task.lock_minutes) * 60_000;
  const due = await ctx.db.selectFrom('tasks').select('id').where('status', 'in', PENDING).where('lock_until', '<', now).orderBy('lock_until').orderBy('created_at').limit(BATCH).execute();
  const queue = due.map((r) => r.id);
  let polled = 0;
  let ended = 0;
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      try {
        const done = await claimAndPoll(ctx, gw, id, now, lockMs);
        if (done === undefined) continue;
        polled++;
        if (done) ended++;
      } catch (err) {
        ctx.log.error({ err, task: id }, 'polling an async task failed');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
  return { polled, ended };
}

/**
 * The polling schedule: every 5 seconds once started (after the gateway's snapshot is loaded);
 * `protect` skips a run while the previous one is still going, and `stop` waits for it.
 */
export function taskPollingJob(ctx: Ctx, gw: Gateway): { start(): void; stop(): Promise<void> } {
  let job: Cron | undefined;
  let running: Promise<void> = Promise.resolve();
  return {
    start() {
      job ??= new Cron('*/5 * * * * *', { protect: true }, () => {
        running = pollTasks(ctx, gw).then(
          () => undefined,
          (err: unknown) => ctx.log.error({ err }, 'task polling failed'),
        );
        return running;
      });
    },
    async stop() {
      job?.stop();
      await running;
    },
  };
}
