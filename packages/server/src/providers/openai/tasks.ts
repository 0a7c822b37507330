// Async tasks on OpenAI-compatible hosts: `POST /v1/tasks` with the model and the inputs answers the
// provider's task id; `GET /v1/tasks/<id>` answers its state. Like the other non-chat endpoints they take
// their default path under the base URL (an agent's `path` is written for chat). Hosts word states
// differently, so the common synonyms are read too.
import { asRecord, isRecord, num, str } from '../shape';
import type { TaskAdapter, UpstreamTaskState } from '../types';
import { defaultUrl } from '../url';
import { openaiHeaders } from './api';

const STATES: Record<string, UpstreamTaskState['status']> = {
  queued: 'queued',
  pending: 'queued',
  submitted: 'queued',
  processing: 'processing',
  in_progress: 'processing',
  running: 'processing',
  succeeded: 'succeeded',
  success: 'succeeded',
  completed: 'succeeded',
  failed: 'failed',
  error: 'failed',
  cancelled: 'failed',
  canceled: 'failed',
  expired: 'failed',
};

/** A field that should be a URL string; anything else reads as none. */
const url = (v: unknown) => str(v)?.slice(0, 2000) ?? '';

export const openaiTasks: TaskAdapter = {
  submit(target, kind, input) {
    return { url: defaultUrl(target.baseUrl, '/v1/tasks'), headers: openaiHeaders(target.key), body: JSON.stringify({ ...input, model: target.model, kind }) };
  },
  parseSubmitted(json) {
    const id = isRecord(json) ? (str(json.id) ?? str(json.task_id)) : undefined;
    return id && id.length <= 200 ? id : undefined;
  },
  poll(target, upstreamId) {
    const { authorization } = openaiHeaders(target.key);
    return { url: defaultUrl(target.baseUrl, `/v1/tasks/${encodeURIComponent(upstreamId)}`), headers: { authorization }, body: '' };
  },
  parseState(json) {
    if (!isRecord(json)) return undefined;
    const status = STATES[String(json.status ?? '').toLowerCase()];
    if (!status) return undefined;
    const error = json.error;
    return {
      status,
      audio_url: url(json.audio_url),
      video_url: url(json.video_url),
      cover_url: url(json.cover_url ?? json.video_pic),
      duration: Math.max(0, num(json.duration)),
      error: (str(error) ?? str(asRecord(error).message) ?? (status === 'failed' ? 'the provider reported the task as failed' : '')).slice(0, 2000),
    };
  },
};
