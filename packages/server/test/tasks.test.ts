// Async tasks through the gateway against the mock provider: submission (the estimate charged for real),
// the polling job moving them 1 → 2 → 3 / -1 / -2, the final charge settled exactly (top-up or refund of
// the difference, full refund on failure or timeout), one call-log row per task, a restart in between,
// racing pollers, another user's ids, and bad input answered OpenAI-style without a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endTask } from '../src/gateway/task-settlement';
import { dialects, expectNoDrift, setQuota } from './helpers';
import { PER_CALL, PER_CHARACTER, PER_MINUTE, PER_SECOND, setTaskTimeout, taskWorld, VSC_DISCOUNT, type TaskWorld } from './task-fixtures';

describe.each(dialects)('async tasks through the gateway on %s', (dialect) => {
  let w: TaskWorld;
  const db = () => w.server.app.ctx.db;

  beforeAll(async () => {
    w = await taskWorld(dialect);
  });
  afterAll(async () => {
    await w?.close();
  });

  it('submits a video task, moves it 1 → 2 → 3 and settles the final price (a reservation larger than it)', async () => {
    const before = await w.balance();
    // 45 s reserved, the provider makes 30 s; the first poll says queued, the second processing.
    const r = await w.submit('video', { model: 'dh-test', text: 'hello [[mock:duration=30]][[mock:queued=1]][[mock:polls=3]]', duration: 45, people_id: 'anchor-7', line_type: 1 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ object: 'task', kind: 'video', model: 'dh-test', status: 'queued', status_code: 1, people_id: 'anchor-7', line_type: 1, audio_url: '', video_url: '', video_time: 0, completed_at: null, error: null });
    expect(r.body.id).toMatch(/^task_[0-9a-f]{32}$/);
    // The estimate is charged for real, and written, before the answer.
    expect(await w.quotaOf(w.user.userId)).toBe(before - 45 * PER_SECOND);
    const submitted = await w.row(r.body.id);
    expect(submitted).toMatchObject({ kind: 'video', status: 1, reserved: 45 * PER_SECOND, total_price: 0, user_id: w.user.userId, app_id: w.appId, type: 1000, trace_id: r.trace, deadline: 0, lock_until: 0 });
    const sent = w.mock.requests.find((q) => q.method === 'POST' && q.path === '/v1/tasks' && q.key === 'sk-mock-task-key');
    // The upstream gets the model's upstream id, the kind and the inputs.
    expect(sent?.body).toMatchObject({ model: 'dh-upstream', kind: 'video', duration: 45, people_id: 'anchor-7', line_type: 1 });
    expect(submitted.upstream_id).toMatch(/^mtask-/);
    expect((await w.poll(r.body.id)).body).toEqual(r.body);
    // No call-log row yet: the task's one row is written when it ends.
    expect(await w.logsOf(r.trace)).toHaveLength(0);

    // Each poll moves it: queued (1) after the first, synthesizing (2) after the second, completed (3)
    // after the third. `polls` and `status` are written together, so every pair read must match even
    // when the app's own run took one of the polls.
    const expected: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 3 };
    const seen: [number, number][] = [];
    for (let i = 0; i < 40; i++) {
      const t = await w.row(r.body.id);
      seen.push([t.polls, t.status]);
      if (t.status === 3) break;
      // The app's own run may hold the task's lock for a moment: give it time instead of spinning.
      if (i > 0 && seen.at(-2)?.[0] === t.polls) await new Promise((res) => setTimeout(res, 25));
      await w.runJob();
    }
    for (const [polls, status] of seen) expect(status, `after ${polls} w.poll(s)`).toBe(expected[polls]);
    expect(seen.at(-1)).toEqual([3, 3]);
    const done = await w.row(r.body.id);
    const upstream = done.upstream_id;
    expect(done).toMatchObject({
      status: 3,
      video_url: `${w.mock.url}/files/${upstream}.mp4`,
      video_pic: `${w.mock.url}/files/${upstream}.jpg`,
      audio_url: '',
      video_time: 30,
      total_price: 30 * PER_SECOND,
      reserved: 45 * PER_SECOND,
      lock_until: 0,
      err_msg: '',
    });
    expect(done.completed_at).toBeGreaterThanOrEqual(done.created_at);
    expect(await w.balance()).toBe(before - 30 * PER_SECOND);
    const answer = (await w.poll(r.body.id)).body;
    expect(answer).toMatchObject({ status: 'completed', status_code: 3, video_url: done.video_url, video_pic: done.video_pic, video_time: 30, error: null });
    expect(answer.completed_at).toBe(Math.floor(done.completed_at / 1000));
    const logs = await w.logsOf(r.trace);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ type: 1000, status: 1, total_price: 30 * PER_SECOND, model: 'dh-test', endpoint: '/v1/tasks/video', user_id: w.user.userId, key_id: done.key_id, attempt: 0 });
    // Polling a finished task changes nothing.
    await w.runJob();
    expect(await w.balance()).toBe(before - 30 * PER_SECOND);
  });

  it('charges the difference when the task runs longer than reserved, and prices per minute, character and call with the discount', async () => {
    // Each task ends on its second poll: the app's own 5-second run may take one poll between the submission
    // and the balance read below, never two, so that read sees the hold and not yet the settlement.
    const cases = [
      // 10 s reserved, 25 s made: a top-up.
      { kind: 'video', body: { model: 'dh-test', text: 'long [[mock:duration=25]][[mock:polls=2]]', duration: 10 }, reserved: 10 * PER_SECOND, final: 25 * PER_SECOND },
      // Per minute: 90 s reserved, 30 s made.
      { kind: 'video', body: { model: 'dh-min', audio_url: 'https://example.com/voice.mp3', duration: 90, text: '[[mock:duration=30]][[mock:polls=2]]' }, reserved: Math.ceil(1.5 * PER_MINUTE), final: Math.ceil(0.5 * PER_MINUTE) },
      // Per character of the text (code points), whatever the duration.
      { kind: 'audio', body: { model: 'ac-test', text: '你好 clone me [[mock:polls=2]]' }, reserved: [...'你好 clone me [[mock:polls=2]]'].length * PER_CHARACTER, final: [...'你好 clone me [[mock:polls=2]]'].length * PER_CHARACTER },
      // Per call, at the group's 80 %.
      { kind: 'videosecondcreation', body: { model: 'vsc-test', video_url: 'https://example.com/in.mp4', text: '[[mock:polls=2]]' }, reserved: PER_CALL * VSC_DISCOUNT, final: PER_CALL * VSC_DISCOUNT },
    ];
    for (const c of cases) {
      const before = await w.balance();
      const r = await w.submit(c.kind, c.body);
      // The worst case, every time: a poll (the app's own run's) before the balance is read.
      await w.runJob();
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect((await w.row(r.body.id)).reserved).toBe(c.reserved);
      expect(await w.balance()).toBe(before - c.reserved);
      const t = await w.untilEnded(r.body.id);
      expect(t).toMatchObject({ status: 3, total_price: c.final });
      expect(await w.balance()).toBe(before - c.final);
      const logs = await w.logsOf(r.trace);
      expect(logs.map((l) => [l.status, l.total_price])).toEqual([[1, c.final]]);
      if (c.kind === 'audio') expect(t).toMatchObject({ audio_url: `${w.mock.url}/files/${t.upstream_id}.mp3`, video_url: '', video_pic: '' });
      if (c.kind === 'videosecondcreation') expect(logs[0]).toMatchObject({ type: 1002, discount_bp: 8000, group_name: 'tasks-80' });
    }
  });

  it('refunds a failed task in full and tells the caller why', async () => {
    const before = await w.balance();
    // Fails on the second poll: the app's own run may take one before the balance read (see above).
    const r = await w.submit('video', { model: 'dh-test', text: 'x [[mock:task=fail]][[mock:error=no face found]][[mock:polls=2]]' });
    expect(r.status).toBe(200);
    // No duration given: 60 s are reserved.
    expect(await w.balance()).toBe(before - 60 * PER_SECOND);
    const t = await w.untilEnded(r.body.id);
    expect(t).toMatchObject({ status: -1, err_msg: 'no face found', total_price: 0, video_url: '' });
    expect(await w.balance()).toBe(before);
    // The gateway's own view of the balance follows the refund too (nothing left pending, nothing lost).
    expect(await w.server.app.gateway.ledger.available({ kind: 'user', id: w.user.userId, limited: true })).toBe(before);
    expect((await w.poll(r.body.id)).body).toMatchObject({ status: 'failed', status_code: -1, error: { message: 'no face found' } });
    const logs = await w.logsOf(r.trace);
    expect(logs.map((l) => [l.status, l.total_price, l.err_msg])).toEqual([[-1, 0, 'no face found']]);
  });

  it('times out a stalled task past the digital-human timeout and refunds it', async () => {
    await setTaskTimeout(w, 1);
    try {
      const before = await w.balance();
      const r = await w.submit('videosecondcreation', { model: 'vsc-test', video_url: 'https://example.com/in.mp4', text: '[[mock:task=stall]]' });
      expect(r.status).toBe(200);
      const submitted = await w.row(r.body.id);
      expect(submitted.deadline).toBe(submitted.created_at + 60_000);
      expect(await w.balance()).toBe(before - PER_CALL * VSC_DISCOUNT);
      // A stalled task reads `processing`.
      for (let i = 0; i < 40 && (await w.row(r.body.id)).status === 1; i++) await w.runJob();
      expect((await w.row(r.body.id)).status).toBe(2);
      // Past the deadline: a run ends it without asking the provider.
      const t = await w.untilEnded(r.body.id, submitted.deadline + 1);
      expect(t).toMatchObject({ status: -2, total_price: 0, err_msg: 'The task did not finish within 1 minute(s).' });
      expect(await w.balance()).toBe(before);
      expect((await w.poll(r.body.id)).body).toMatchObject({ status: 'timeout', status_code: -2, error: { message: t.err_msg } });
      expect((await w.logsOf(r.trace)).map((l) => [l.type, l.status, l.total_price])).toEqual([[1002, -1, 0]]);
    } finally {
      await setTaskTimeout(w, 0);
    }
  });

  it('refunds at once and answers the upstream error when the submission fails', async () => {
    const before = await w.balance();
    const count = async () => Number((await db().selectFrom('tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const tasks = await count();
    const r = await w.submit('video', { model: 'dh-test', text: '[[mock:status=400]][[mock:error=unsupported voice]]' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ message: 'unsupported voice', type: 'invalid_request_error' });
    expect(await w.balance()).toBe(before);
    expect(await count()).toBe(tasks);
    expect((await w.logsOf(r.trace)).map((l) => [l.type, l.status, l.total_price])).toEqual([[1000, -1, 0]]);
    // A provider that keeps failing with 5xx: every key tried, still refunded, still no task.
    const down = await w.submit('video', { model: 'dh-test', text: '[[mock:status=503]]' });
    expect(down.status).toBe(503);
    expect(down.body.error?.message).toBeTruthy();
    expect(await w.balance()).toBe(before);
    expect(await count()).toBe(tasks);
  });

  it('settles exactly after a restart between submission and completion', async () => {
    const before = await w.balance();
    // Ends on the second poll: the restarted app's own run may take one before the read below (see above).
    const r = await w.submit('video', { model: 'dh-test', text: 'restart [[mock:duration=20]][[mock:polls=2]]', duration: 50 });
    expect(r.status).toBe(200);
    await w.server.restart();
    // The new app knows nothing in memory: the charge and the reservation come from the database.
    expect(await w.quotaOf(w.user.userId)).toBe(before - 50 * PER_SECOND);
    const t = await w.untilEnded(r.body.id);
    expect(t).toMatchObject({ status: 3, total_price: 20 * PER_SECOND, video_time: 20 });
    expect(await w.balance()).toBe(before - 20 * PER_SECOND);
    expect(await w.logsOf(r.trace)).toHaveLength(1);
    expect((await w.poll(r.body.id)).body.status).toBe('completed');
  });

  it('ends a task once however many pollers race for it', async () => {
    // Several rounds: the interleavings differ from one to the next.
    for (let round = 0; round < 20; round++) {
      const before = await w.balance();
      const r = await w.submit('video', { model: 'dh-test', text: 'race [[mock:duration=15]][[mock:polls=1]]', duration: 10 });
      expect(r.status).toBe(200);
      const now = Date.now();
      // The last two run "after" the others' locks ran out, so they claim the task while those hold it.
      await Promise.all([w.runJob(now), w.runJob(now), w.runJob(now + 31 * 60_000), w.runJob(now + 62 * 60_000)]);
      const t = await w.untilEnded(r.body.id);
      expect(t).toMatchObject({ status: 3, total_price: 15 * PER_SECOND });
      expect(await w.balance(), `round ${round}`).toBe(before - 15 * PER_SECOND);
      expect(await w.logsOf(r.trace)).toHaveLength(1);
      // An ended task is not ended again, whatever a caller read.
      expect(await endTask(w.server.app.ctx, w.server.app.gateway, t, { status: -1, err_msg: 'late' })).toBe(false);
    }

    // The same end applied twice from one stale read: only the first moves the task and the money.
    // (It stays `queued`, so a poll by the app's own run between the read and the ends changes nothing.)
    const again = await w.submit('video', { model: 'dh-test', text: 'stale [[mock:task=stall]][[mock:queued=1000]]', duration: 5 });
    const stale = await w.row(again.body.id);
    const mid = await w.balance();
    const end = { status: -1 as const, err_msg: 'cancelled by test' };
    const results = await Promise.all([endTask(w.server.app.ctx, w.server.app.gateway, stale, end), endTask(w.server.app.ctx, w.server.app.gateway, stale, end)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await w.balance()).toBe(mid + 5 * PER_SECOND);
    expect(await w.logsOf(again.trace)).toHaveLength(1);
  });

  it("answers 404 for another user's task and for unknown ids", async () => {
    const mine = await w.submit('video', { model: 'dh-test', text: 'mine [[mock:task=stall]]', duration: 1 });
    expect(mine.status).toBe(200);
    const theirs = await w.poll(mine.body.id, w.other.key);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toMatchObject({ code: 'task_not_found', type: 'not_found_error' });
    expect((await w.poll('task_00000000000000000000000000000000')).status).toBe(404);
    const long = await w.poll('x'.repeat(300));
    expect(long.status).toBe(404);
    expect(long.body.error).toMatchObject({ code: 'task_not_found' });
    expect((await w.poll('')).status).toBe(404);
    expect((await w.poll(mine.body.id, '')).status).toBe(401);
    expect((await w.poll(mine.body.id, 'sk-wrong')).status).toBe(401);
  });

  it('refuses a model of another kind, unknown kinds and models, and bad bodies, OpenAI-style', async () => {
    const before = await w.balance();
    const cases: [kind: string, body: unknown, status: number, code: string, mentions?: string][] = [
      ['audio', { model: 'dh-test', text: 'hi' }, 400, 'unsupported_endpoint'],
      ['video', { model: 'gpt-test', text: 'hi' }, 400, 'unsupported_endpoint'],
      ['videosecondcreation', { model: 'ac-test', video_url: 'https://example.com/a.mp4' }, 400, 'unsupported_endpoint'],
      ['image', { model: 'dh-test', text: 'hi' }, 404, 'unknown_url'],
      ['video/extra', { model: 'dh-test', text: 'hi' }, 404, 'unknown_url'],
      ['v'.repeat(300), { model: 'dh-test', text: 'hi' }, 404, 'unknown_url'],
      ['video', { model: 'no-such-model', text: 'hi' }, 404, 'model_not_found'],
      ['video', '{"model": "dh-test", ', 400, 'invalid_json'],
      ['video', '[1, 2]', 400, 'invalid_request'],
      ['video', { text: 'hi' }, 400, 'model_required'],
      ['video', { model: 'dh-test', text: 'hi', duration: 'long' }, 400, 'invalid_value', 'duration'],
      ['video', { model: 'dh-test', text: 'hi', duration: 0 }, 400, 'invalid_value', 'duration'],
      ['video', { model: 'dh-test', text: 'hi', duration: 1.5 }, 400, 'invalid_value', 'duration'],
      ['video', { model: 'dh-test', text: 'hi', line_type: 5 }, 400, 'invalid_value', 'line_type'],
      ['video', { model: 'dh-test', text: 'x'.repeat(20_001) }, 400, 'invalid_value', 'text'],
      ['video', { model: 'dh-test', text: 42 }, 400, 'invalid_value', 'text'],
      ['video', { model: 'dh-test' }, 400, 'missing_required_parameter', 'text'],
      ['audio', { model: 'ac-test' }, 400, 'missing_required_parameter', 'text'],
      ['videosecondcreation', { model: 'vsc-test', text: 'hi' }, 400, 'missing_required_parameter', 'video_url'],
    ];
    for (const [kind, body, status, code, mentions] of cases) {
      const r = await w.submit(kind, body);
      expect(r.status, `${kind} ${JSON.stringify(body).slice(0, 80)}`).toBe(status);
      expect(r.body.error).toMatchObject({ code, type: expect.any(String) as string, message: expect.any(String) as string });
      if (mentions) expect(r.body.error?.message).toContain(mentions);
    }
    const unauthenticated = await w.submit('video', { model: 'dh-test', text: 'hi' }, '');
    expect(unauthenticated.status).toBe(401);
    expect(await w.balance()).toBe(before);
  });

  it('refuses a task the balance cannot cover', async () => {
    await setQuota(w.server, w.other.client.userId, 1000);
    await w.server.app.gateway.snapshot.reload('users', [String(w.other.client.userId)]);
    try {
      // 60 s at 1000 a second is more than the 1000 left.
      const r = await w.submit('video', { model: 'dh-test', text: 'too dear' }, w.other.key);
      expect(r.status).toBe(429);
      expect(r.body.error).toMatchObject({ code: 'insufficient_quota', type: 'insufficient_quota' });
      expect(await db().selectFrom('tasks').select('id').where('user_id', '=', w.other.client.userId).where('model', '=', 'dh-test').execute()).toHaveLength(0);
      expect(await w.balance(w.other.client.userId)).toBe(1000);
    } finally {
      await setQuota(w.server, w.other.client.userId, 10_000_000);
      await w.server.app.gateway.snapshot.reload('users', [String(w.other.client.userId)]);
    }
  });

  it('ends with every balance adding up to its records (ledger verifier)', () => expectNoDrift(w.server));
});
