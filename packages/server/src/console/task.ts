// Async task lists (docs/SPEC.md §2.4 task screens, §3.11 Task; docs/ORIGINAL-API.md §1.8 pattern): `/task/<kind>/page` and
// `/task/<kind>/detail` for audio, video and video second creation, each role in its scope (a user its
// own, a reseller its users' and its own, an admin all), newest first.
import { ANY_ROLE } from '@fastgate/core/constants';
import { idSchema } from '@fastgate/core/schemas/common';
import { TASK_KINDS, taskPageSchema, taskPath, type Task, type TaskKind } from '@fastgate/core/entities/task';
import type { FastifyInstance } from 'fastify';
import type { TaskRow } from '../db/schema';
import { callerOf, contains, resource } from '../http/crud';
import { get, post } from '../http/route';
import { formatTime } from '../http/time';
import { ownerScope } from './owner-scope';
import { inTimeRange } from './record-filters';

export async function taskRoutes(app: FastifyInstance) {
  const ctx = app.ctx;
  const zone = ctx.config.timeZone;

  const toWire = (row: TaskRow): Task => ({
    id: row.id,
    task_id: row.task_id,
    kind: row.kind as TaskKind,
    trace_id: row.trace_id,
    user_id: row.user_id,
    app_id: row.app_id,
    model: row.model,
    people_id: row.people_id,
    line_type: row.line_type,
    audio_url: row.audio_url,
    video_url: row.video_url,
    video_pic: row.video_pic,
    video_time: row.video_time,
    status: row.status,
    reserved: row.reserved,
    total_price: row.total_price,
    err_msg: row.err_msg,
    creator: row.creator,
    created_at: formatTime(row.created_at, zone),
    updated_at: formatTime(row.updated_at, zone),
    completed_at: formatTime(row.completed_at, zone),
  });

  for (const kind of TASK_KINDS) {
    const tasks = resource(ctx, {
      table: 'tasks',
      scope: (q, c) => ownerScope(q, c).where('kind', '=', kind),
      page: {
        schema: taskPageSchema,
        filter: (q, f) => {
          let out = contains(q, 'people_id', f.people_id);
          if (f.user_id) out = out.where('user_id', '=', f.user_id);
          if (f.app_id) out = out.where('app_id', '=', f.app_id);
          if (f.trace_id) out = out.where('trace_id', '=', f.trace_id);
          if (f.task_id) out = out.where('task_id', '=', f.task_id);
          if (f.line_type !== undefined) out = out.where('line_type', '=', f.line_type);
          if (f.status !== undefined) out = out.where('status', '=', f.status);
          return inTimeRange(ctx, out, 'created_at', f.created_at);
        },
        order: [['created_at', 'desc'], ['id', 'desc']],
      },
      toWire,
    });
    post(app, taskPath(kind, 'page'), { schema: taskPageSchema, roles: [ANY_ROLE] }, (input, request) => tasks.page(callerOf(request), input));
    get(app, taskPath(kind, 'detail'), { schema: idSchema, roles: [ANY_ROLE] }, (input, request) => tasks.detail(callerOf(request), input.id));
  }
}
