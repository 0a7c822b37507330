// How an async task's money ends (docs/SPEC.md §4.4 task status): the submission charged the estimate for real
// (ledger settle), so the end only moves the difference — completed: final − reserved (a top-up or a
// refund), failed or timed out: −reserved. The transition is one conditional UPDATE on the status read,
// so however many pollers race, one of them ends the task and only that one touches the ledger; it also
// writes the task's one call-log row (the submitting attempt's, completed with the final price).
import { LogStatus } from '@fastgate/core/entities/call-log';
import { TaskStatus } from '@fastgate/core/entities/task';
import type { AccountRef } from '../billing/ledger-types';
import { finalTaskPrice, type TaskPrice } from '../billing/task-price';
import type { Ctx } from '../context';
import type { NewCallLog, TaskRow } from '../db/schema';
import { storable, storableRow } from '../db/text';
import { isRecord, tryParse } from '../providers/shape';
import type { Gateway } from './gateway';

/** Stored in tasks.settlement at submission. */
export interface TaskSettlement {
  /** The balances the estimate was taken from, with the `limited` flags they had then. */
  accounts: readonly AccountRef[];
  price: TaskPrice;
  /** The submitting attempt's call-log row; written once, when the task ends. */
  log: NewCallLog;
}

export function readSettlement(text: string): TaskSettlement | undefined {
  const v = tryParse(text);
  return isRecord(v) && Array.isArray(v.accounts) && isRecord(v.price) && isRecord(v.log) ? (v as unknown as TaskSettlement) : undefined;
}

export type TaskEnd =
  | { status: typeof TaskStatus.Completed; audio_url: string; video_url: string; video_pic: string; video_time: number }
  | { status: typeof TaskStatus.Failed | typeof TaskStatus.TimedOut; err_msg: string };

/** Ends `task` (as read, with its current status) once; false when another poller already moved it. */
export async function endTask(ctx: Ctx, gw: Gateway, task: TaskRow, end: TaskEnd, now = Date.now()): Promise<boolean> {
  // Only a running task ends; the update below repeats the check against what is stored now.
  if (task.status !== TaskStatus.Queued && task.status !== TaskStatus.Synthesizing) return false;
  const settlement = readSettlement(task.settlement);
  const completed = end.status === TaskStatus.Completed;
  const final = completed && settlement ? finalTaskPrice(settlement.price, end.video_time) : 0;
  // The upstream's texts: stored as the database can keep them (db/text.ts).
  const errMsg = completed ? '' : storable(end.err_msg.slice(0, 2000));
  const res = await ctx.db
    .updateTable('tasks')
    .set({
      ...(completed ? { audio_url: storable(end.audio_url), video_url: storable(end.video_url), video_pic: storable(end.video_pic), video_time: end.video_time } : {}),
      status: end.status,
      err_msg: errMsg,
      total_price: final,
      polls: task.polls + 1,
      completed_at: now,
      updated_at: now,
      lock_until: 0,
    })
    .where('id', '=', task.id)
    .where('status', '=', task.status)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return false;
  if (!settlement) {
    // Only a row written by hand lacks it: nothing says whom to refund.
    ctx.log.error({ task: task.task_id }, 'an async task ended without its settlement record; its quota was not adjusted');
    return true;
  }
  const keep = gw.snapshot.sys.log.open ? gw.snapshot.sys.log.chat_records : [];
  const totalTime = Math.max(0, now - task.created_at);
  const log: NewCallLog = storableRow({
    ...settlement.log,
    status: completed ? LogStatus.Success : LogStatus.Failed,
    total_price: final,
    total_time: totalTime,
    duration: Math.max(0, totalTime - (settlement.log.conn_time ?? 0)),
    err_msg: errMsg,
    completion: completed && keep.includes('completion') ? [end.audio_url, end.video_url].filter(Boolean).join('\n') : '',
  });
  gw.ledger.adjust(settlement.accounts, final - task.reserved, [log]);
  // Not on a request path: write now rather than within the batch interval.
  await gw.ledger.flush();
  return true;
}
