// Async tasks at the gateway: `POST /v1/tasks/<kind>` submits one (audio → audio clone models, video →
// digital human, videosecondcreation → video second creation) and answers its id; `GET /v1/tasks/<id>`
// answers where it stands (the job in jobs/tasks.ts polls the provider and moves it).
// Submission is an ordinary call up to the upstream answer — admission, resolution, limits, the hold
// (run.ts withOpenCall), key picking with retries and fallback (attempt.ts) — with one difference: the
// estimate is charged for real at once and the task row records it, so a restart between submission
// and completion loses nothing; task-settlement.ts moves the difference when the task ends.
import { randomUUID } from 'node:crypto';
import { LogStatus } from '@fastgate/core/entities/call-log';
import { TASK_KINDS, TASK_STATUS_NAMES, TaskStatus, taskSubmitSchema, type GatewayTask, type TaskKind, type TaskStatusValue, type TaskSubmit } from '@fastgate/core/entities/task';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { estimateTask, taskPrice, type TaskPrice } from '../billing/task-price';
import type { TaskRow } from '../db/schema';
import { storableRow } from '../db/text';
import { newId } from '../http/ids';
import { providers } from '../providers/index';
import { admit } from './admit';
import { GatewayError, invalidRequest } from './errors';
import type { Gateway } from './gateway';
import { parseJsonBody } from './passthrough';
import { badUpstreamBody, failure, isFailed, readJson, sendOrFail } from './relay';
import { CallAttempts, type Send } from './attempt';
import { callFailure, withOpenCall, type CallSpec } from './run';
import { shieldMessage } from './shield';
import type { Route } from './pick';
import type { TaskSettlement } from './task-settlement';

const isKind = (k: string): k is TaskKind => (TASK_KINDS as readonly string[]).includes(k);

/** The body, checked with the core schema; the first problem is named OpenAI-style. */
function parseTask(kind: TaskKind, raw: unknown): { input: TaskSubmit; extra: Record<string, unknown> } {
  const body = parseJsonBody(raw);
  const parsed = taskSubmitSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidRequest(`Invalid '${issue.path.join('.') || 'body'}': ${issue.message}`, 'invalid_value');
  }
  const input = parsed.data;
  // What each kind cannot start without: words to clone a voice with, something for the digital
  // human to say, a video to rework.
  if (kind === 'audio' && !input.text) throw invalidRequest("'text' is required for an audio task.", 'missing_required_parameter');
  if (kind === 'video' && !input.text && !input.audio_url) throw invalidRequest("A video task needs 'text' or 'audio_url'.", 'missing_required_parameter');
  if (kind === 'videosecondcreation' && !input.video_url) throw invalidRequest("'video_url' is required for a video second creation task.", 'missing_required_parameter');
  return { input, extra: body };
}

function toGatewayTask(row: TaskRow, message = row.err_msg): GatewayTask {
  return {
    id: row.task_id,
    object: 'task',
    kind: row.kind as TaskKind,
    model: row.model,
    status: TASK_STATUS_NAMES[row.status as TaskStatusValue] ?? 'unknown',
    status_code: row.status,
    people_id: row.people_id,
    line_type: row.line_type,
    audio_url: row.audio_url,
    video_url: row.video_url,
    video_pic: row.video_pic,
    video_time: row.video_time,
    created_at: Math.floor(row.created_at / 1000),
    completed_at: row.completed_at > 0 ? Math.floor(row.completed_at / 1000) : null,
    error: row.status === TaskStatus.Failed || row.status === TaskStatus.TimedOut ? { message } : null,
  };
}

export async function submitTask(gw: Gateway, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const kind = (request.params as { '*': string })['*'];
  if (!isKind(kind)) throw new GatewayError(404, 'unknown_url', `Unknown request URL: POST /v1/tasks/${kind.slice(0, 64)}. Task kinds: ${TASK_KINDS.join(', ')}.`);
  const { input, extra } = parseTask(kind, request.body);
  const db = request.server.ctx.db;
  let price: TaskPrice | undefined;
  const spec: Omit<CallSpec, 'attempt'> = {
    requested: input.model,
    endpoint: `task_${kind}`,
    path: `/v1/tasks/${kind}`,
    stream: false,
    prompt: input.text ?? '',
    estimate: (r) => {
      price = taskPrice({ quotas: r.model.quotas, type: r.model.type, discountBp: r.discountBp, duration: input.duration, text: input.text });
      return estimateTask(price);
    },
  };
  await withOpenCall(gw, request, reply, spec, async (call) => {
    const { reservation, caller, resolution, logs } = call;
    const reserved = reservation.amount;
    let sent: { upstreamId: string; route: Route } | undefined;
    const send: Send = async (ctx) => {
      const adapter = providers[ctx.route.family].tasks;
      if (!adapter) return failure({ status: 400, type: 'invalid_request_error', code: 'unsupported_endpoint', message: `The model \`${input.model}\` does not support async tasks.` });
      const res = await sendOrFail(gw, ctx, adapter.submit(ctx.route.target, kind, { ...extra, ...input }));
      if (isFailed(res)) return res;
      const upstreamId = adapter.parseSubmitted(await readJson(res));
      if (!upstreamId) return badUpstreamBody();
      sent = { upstreamId, route: ctx.route };
      return { kind: 'finished', status: LogStatus.Success, quota: reserved, tokens: 0 };
    };
    // No charge on finishing: the task row comes first, then the estimate is charged (below).
    const result = await new CallAttempts(gw, call, { attempt: send }).run();
    if (result.kind === 'failed') throw callFailure(gw, call, result.error);
    if (!sent || !price) throw new GatewayError(499, 'client_closed_request', 'The client closed the connection before the task was submitted.');
    // The submitting attempt's row is written when the task ends, with the final price.
    const log = logs.pop()!;
    const now = Date.now();
    const timeout = gw.snapshot.sys.digital_human.task_timeout;
    const settlement: TaskSettlement = { accounts: call.accounts, price, log };
    // The client's texts (people_id, model) are stored as the database can keep them.
    const row: TaskRow = storableRow({
      id: newId(),
      task_id: `task_${randomUUID().replace(/-/g, '')}`,
      kind,
      trace_id: call.traceId,
      user_id: caller.user.user_id,
      rid: caller.user.rid,
      app_id: caller.app.app_id,
      app_key_id: caller.appKey.id,
      creator: caller.appKey.key_mask,
      model_id: resolution.model.id,
      model: input.model,
      type: resolution.model.type,
      corp: resolution.model.corp,
      model_agent_id: sent.route.agent?.id ?? '',
      key_id: sent.route.key.id,
      upstream_id: sent.upstreamId,
      people_id: input.people_id ?? '',
      input: JSON.stringify(input).slice(0, 100_000),
      line_type: input.line_type,
      audio_url: '',
      video_url: '',
      video_pic: '',
      video_time: 0,
      status: TaskStatus.Queued,
      polls: 0,
      reserved,
      total_price: 0,
      err_msg: '',
      client_ip: caller.ip,
      lock_until: 0,
      deadline: timeout > 0 ? call.reqTime + timeout * 60_000 : 0,
      settlement: JSON.stringify(settlement),
      completed_at: 0,
      created_at: call.reqTime,
      updated_at: now,
    });
    await db.insertInto('tasks').values(row).execute();
    // The estimate becomes a real charge, written before the caller hears of the task.
    gw.ledger.settle(reservation, reserved, logs);
    await gw.ledger.flush();
    reply.send(toGatewayTask(row));
  });
}

/** Only the caller's own tasks: anyone else's id is as unknown as a made-up one. */
export async function getTask(gw: Gateway, request: FastifyRequest): Promise<GatewayTask> {
  const caller = admit(gw.snapshot, request);
  const id = (request.params as { '*': string })['*'];
  // Ours are `task_<hex>`: anything else (a NUL, a path) is unknown without asking the database.
  const row =
    /^[\w-]{1,64}$/.test(id)
      ? await request.server.ctx.db.selectFrom('tasks').selectAll().where('task_id', '=', id).where('user_id', '=', caller.user.user_id).executeTakeFirst()
      : undefined;
  if (!row) throw new GatewayError(404, 'task_not_found', `No task found with id '${id.slice(0, 64)}'.`);
  return toGatewayTask(row, row.err_msg ? shieldMessage(gw.snapshot.sys, caller.user.role, row.err_msg, row.trace_id) : '');
}
