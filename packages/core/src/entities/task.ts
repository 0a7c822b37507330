// Async tasks (docs/SPEC.md §3.11 Task, §4.4 task status; docs/ORIGINAL-API.md §1.8 pattern): audio (audio clone), video
// (digital human) and video second creation. The gateway submits them to the provider and a job polls.
import { z } from 'zod';
import { dateRangeFilter, pageSchema } from '../schemas/common';
import { numberish } from '../schemas/encodings';
import { ownerIdFilter } from '../schemas/usage-limits';

export const TASK_KINDS = ['audio', 'video', 'videosecondcreation'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];
export const TaskStatus = { Queued: 1, Synthesizing: 2, Completed: 3, Failed: -1, TimedOut: -2 } as const;
export type TaskStatusValue = (typeof TaskStatus)[keyof typeof TaskStatus];
/** Names the gateway answers with. */
export const TASK_STATUS_NAMES: Record<TaskStatusValue, string> = { 1: 'queued', 2: 'synthesizing', 3: 'completed', [-1]: 'failed', [-2]: 'timeout' };
export const LineType = { Slow: 0, Fast: 1 } as const;

/** Console: `/task/<kind>/page` and `GET /task/<kind>/detail?id=`. */
export const taskPath = (kind: TaskKind, verb: 'page' | 'detail') => `/task/${kind}/${verb}`;

export const taskPageSchema = pageSchema.extend({
  user_id: ownerIdFilter,
  app_id: ownerIdFilter,
  trace_id: z.string().trim().max(64).optional(),
  task_id: z.string().trim().max(64).optional(),
  people_id: z.string().trim().max(100).optional(),
  // The original console sends these as text, "" when cleared (schemas/encodings.ts).
  line_type: numberish(z.union([z.literal(0), z.literal(1), z.literal(-1)]).optional()).transform((v) => (v === -1 ? undefined : v)),
  status: numberish(z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(-1), z.literal(-2)]).optional()).transform((v) => (v === 0 ? undefined : v)),
  created_at: dateRangeFilter,
});

/** Console row. */
export interface Task {
  id: string;
  task_id: string;
  kind: TaskKind;
  trace_id: string;
  user_id: number;
  app_id: number;
  model: string;
  people_id: string;
  line_type: number;
  audio_url: string;
  video_url: string;
  video_pic: string;
  video_time: number;
  status: number;
  /** Quota units held at submission, and what was finally charged. */
  reserved: number;
  total_price: number;
  err_msg: string;
  creator: string;
  created_at: string;
  updated_at: string;
  completed_at: string;
}

/**
 * Gateway: `POST /v1/tasks/<kind>` submits, `GET /v1/tasks/<task_id>` polls. The body carries the
 * model and the inputs; `duration` (seconds) sizes the reservation for per-second/minute prices.
 */
export const taskSubmitSchema = z.object({
  model: z.string().trim().min(1).max(100),
  text: z.string().max(20_000).optional(),
  people_id: z.string().trim().max(100).optional(),
  line_type: numberish(z.union([z.literal(0), z.literal(1)]).default(0)),
  audio_url: z.string().trim().max(2000).optional(),
  video_url: z.string().trim().max(2000).optional(),
  duration: numberish(z.number().int().min(1).max(3600).optional()),
});
export type TaskSubmit = z.infer<typeof taskSubmitSchema>;

/** What the gateway answers for a task. */
export interface GatewayTask {
  id: string;
  object: 'task';
  kind: TaskKind;
  model: string;
  status: string;
  status_code: number;
  people_id: string;
  line_type: number;
  audio_url: string;
  video_url: string;
  video_pic: string;
  video_time: number;
  /** Unix seconds. */
  created_at: number;
  completed_at: number | null;
  error: { message: string } | null;
}
