import { describe, expect, it } from 'vitest';
import type { UpstreamTarget } from '../types';
import { openaiTasks } from './tasks';

const target = (baseUrl: string): UpstreamTarget => ({ baseUrl, path: '/custom/chat', key: 'sk-test', model: 'dh-upstream' });

describe('openai task requests', () => {
  it('submits to /v1/tasks under the base URL with the upstream model and the kind', () => {
    const r = openaiTasks.submit(target('https://host/v1'), 'video', { model: 'alias', text: 'hi', duration: 5 });
    expect(r.url).toBe('https://host/v1/tasks');
    expect(r.headers).toEqual({ authorization: 'Bearer sk-test', 'content-type': 'application/json' });
    expect(JSON.parse(r.body)).toEqual({ model: 'dh-upstream', kind: 'video', text: 'hi', duration: 5 });
    expect(openaiTasks.submit(target('https://api.example.com/'), 'audio', {}).url).toBe('https://api.example.com/v1/tasks');
  });

  it('polls with a GET of the escaped id and no body', () => {
    const r = openaiTasks.poll(target('https://host'), 'a/b c');
    expect(r).toEqual({ url: 'https://host/v1/tasks/a%2Fb%20c', headers: { authorization: 'Bearer sk-test' }, body: '' });
  });
});

describe('openai task answers', () => {
  it('reads the provider task id', () => {
    expect(openaiTasks.parseSubmitted({ id: 'mtask-1', status: 'queued' })).toBe('mtask-1');
    expect(openaiTasks.parseSubmitted({ task_id: 't-2' })).toBe('t-2');
    expect(openaiTasks.parseSubmitted({ id: 7 })).toBeUndefined();
    expect(openaiTasks.parseSubmitted({ id: '' })).toBeUndefined();
    expect(openaiTasks.parseSubmitted({ id: 'x'.repeat(201) })).toBeUndefined();
    expect(openaiTasks.parseSubmitted(undefined)).toBeUndefined();
  });

  it('reads states, their common synonyms and the results', () => {
    expect(openaiTasks.parseState({ status: 'succeeded', video_url: 'https://v/1.mp4', cover_url: 'https://v/1.jpg', duration: 12.5, error: null })).toEqual({
      status: 'succeeded',
      audio_url: '',
      video_url: 'https://v/1.mp4',
      cover_url: 'https://v/1.jpg',
      duration: 12.5,
      error: '',
    });
    expect(openaiTasks.parseState({ status: 'COMPLETED', audio_url: 'https://a/1.mp3', video_pic: 'https://p.jpg' })).toMatchObject({ status: 'succeeded', audio_url: 'https://a/1.mp3', cover_url: 'https://p.jpg' });
    for (const [s, want] of [['pending', 'queued'], ['in_progress', 'processing'], ['running', 'processing'], ['cancelled', 'failed'], ['expired', 'failed']] as const) {
      expect(openaiTasks.parseState({ status: s })?.status).toBe(want);
    }
  });

  it('reads failures as object or text, with a reason when none is given', () => {
    expect(openaiTasks.parseState({ status: 'failed', error: { message: 'no face', code: 'x' } })?.error).toBe('no face');
    expect(openaiTasks.parseState({ status: 'error', error: 'bad audio' })?.error).toBe('bad audio');
    expect(openaiTasks.parseState({ status: 'failed' })?.error).toBe('the provider reported the task as failed');
  });

  it('refuses what is not a task state and ignores wrongly typed fields', () => {
    expect(openaiTasks.parseState({ status: 'dancing' })).toBeUndefined();
    expect(openaiTasks.parseState({})).toBeUndefined();
    expect(openaiTasks.parseState([{ status: 'queued' }])).toBeUndefined();
    expect(openaiTasks.parseState({ status: 'succeeded', video_url: 42, duration: '9', audio_url: null })).toMatchObject({ video_url: '', audio_url: '', duration: 0 });
    expect(openaiTasks.parseState({ status: 'succeeded', duration: -3 })?.duration).toBe(0);
  });
});
