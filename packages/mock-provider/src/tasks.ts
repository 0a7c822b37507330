// Async tasks (digital human, audio clone, video second creation): `POST /v1/tasks` queues one and
// `GET /v1/tasks/:id` reports it. Each GET counts as one poll; the outcome is fixed at submission by
// the fault in force (a `[[mock:...]]` directive in `text`, or a per-key fault):
//   task=succeed (default) | fail | stall (never finishes), polls=N (finishes at the Nth poll, default 2),
//   queued=N (the first N polls still say `queued`, default 0; `processing` after that), duration=S
//   (seconds of media reported; default the request's `duration`, else 10), error=text (the failure
//   message). Until it finishes a task reports a progress in percent.
// Result URLs derive from the task id, so tests can predict them.
import type { ServerResponse } from 'node:http';
import type { Fault } from './faults';
import { sendJson } from './http';
import { openaiError } from './openai';

type TaskOutcome = 'succeed' | 'fail' | 'stall';
type MockTaskStatus = 'queued' | 'processing' | 'succeeded' | 'failed';

export interface MockTask {
  id: string;
  model: string;
  /** 'audio' | 'video' | 'videosecondcreation' when the caller says; decides which URLs it gets. */
  kind: string;
  outcome: TaskOutcome;
  polls_needed: number;
  /** Polls that still answer `queued`. */
  queued_polls: number;
  polls: number;
  duration: number;
  error: string;
  created: number;
}

const DEFAULT_TASK_POLLS = 2;
const DEFAULT_TASK_DURATION = 10;

/** The media URLs of a finished task: a function of its id and kind only. */
function taskUrls(origin: string, id: string, kind: string): { audio_url: string; video_url: string; cover_url: string } {
  const audio = kind === 'audio' || kind === '';
  const video = kind !== 'audio';
  return {
    audio_url: audio ? `${origin}/files/${id}.mp3` : '',
    video_url: video ? `${origin}/files/${id}.mp4` : '',
    cover_url: video ? `${origin}/files/${id}.jpg` : '',
  };
}

export class TaskBook {
  private tasks = new Map<string, MockTask>();
  private seq = 0;

  get(id: string): MockTask | undefined {
    return this.tasks.get(id);
  }

  clear(): void {
    this.tasks.clear();
  }

  /** Queues a task; the outcome comes from the fault in force for this request. */
  submit(body: Record<string, any>, fault: Fault): MockTask {
    this.seq += 1;
    const requested = Number(body.duration);
    const task: MockTask = {
      id: `mtask-${String(this.seq).padStart(6, '0')}`,
      model: String(body.model),
      kind: typeof body.kind === 'string' ? body.kind : '',
      outcome: fault.task === 'fail' || fault.task === 'stall' ? fault.task : 'succeed',
      polls_needed: Math.max(1, Math.floor(fault.polls ?? DEFAULT_TASK_POLLS)),
      queued_polls: Math.max(0, Math.floor(fault.queued ?? 0)),
      polls: 0,
      duration: fault.duration ?? (requested > 0 ? requested : DEFAULT_TASK_DURATION),
      error: fault.error ?? 'mock task failed',
      created: Math.floor(Date.now() / 1000),
    };
    this.tasks.set(task.id, task);
    return task;
  }
}

function view(task: MockTask, origin: string, status: MockTaskStatus) {
  const done = status === 'succeeded';
  const urls = taskUrls(origin, task.id, task.kind);
  return {
    id: task.id,
    object: 'task',
    model: task.model,
    created_at: task.created,
    status,
    progress: done ? 100 : status === 'failed' ? 0 : Math.min(99, Math.floor((task.polls * 100) / task.polls_needed)),
    audio_url: done ? urls.audio_url : '',
    video_url: done ? urls.video_url : '',
    cover_url: done ? urls.cover_url : '',
    duration: done ? task.duration : 0,
    error: status === 'failed' ? { message: task.error, code: 'task_failed' } : null,
  };
}

export function submitTask(res: ServerResponse, book: TaskBook, body: Record<string, any>, fault: Fault): void {
  if (typeof body.model !== 'string' || !body.model) return openaiError(res, 400, 'You must provide a model parameter.', 'model_required');
  const task = book.submit(body, fault);
  sendJson(res, 200, { id: task.id, object: 'task', model: task.model, status: 'queued', created_at: task.created });
}

/** One poll: counts it, then reports where the task stands. */
export function pollTask(res: ServerResponse, book: TaskBook, id: string, origin: string): void {
  const task = book.get(id);
  if (!task) return openaiError(res, 404, `No task found with id '${id}'.`, 'task_not_found');
  task.polls += 1;
  const finished = task.outcome !== 'stall' && task.polls >= task.polls_needed;
  const running: MockTaskStatus = task.polls <= task.queued_polls ? 'queued' : 'processing';
  const status: MockTaskStatus = !finished ? running : task.outcome === 'fail' ? 'failed' : 'succeeded';
  sendJson(res, 200, view(task, origin, status));
}
