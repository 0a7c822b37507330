// Async task lists in the console (`/task/<kind>/page|detail`): each role in its scope, the filters,
// the wire shape, another tenant's ids, and bad filters named in the envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, type Client } from './helpers';
import { PER_CALL, taskWorld, VSC_DISCOUNT, type TaskWorld } from './task-fixtures';

describe.each(dialects)('async task lists on %s', (dialect) => {
  let w: TaskWorld;

  beforeAll(async () => {
    w = await taskWorld(dialect);
  });
  afterAll(async () => {
    await w?.close();
  });

  it('lists tasks per kind in each role’s scope, with filters, and refuses foreign ids and bad filters', async () => {
    const mine = await w.submit('videosecondcreation', { model: 'vsc-test', video_url: 'https://example.com/a.mp4', people_id: 'host-A', line_type: 1, text: '[[mock:polls=1]]' });
    const theirs = await w.submit('videosecondcreation', { model: 'vsc-test', video_url: 'https://example.com/b.mp4', people_id: 'host-B', text: '[[mock:polls=1]]' }, w.other.key);
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    await w.untilEnded(mine.body.id);
    await w.untilEnded(theirs.body.id);
    const mineRow = await w.row(mine.body.id);
    const theirRow = await w.row(theirs.body.id);
    const page = async (c: Client, filter: Record<string, unknown> = {}, kind = 'videosecondcreation') => c.post(`/api/v1/task/${kind}/page`, { current: 1, pageSize: 100, ...filter });
    const ids = async (c: Client, filter: Record<string, unknown> = {}, kind?: string) => {
      const r = await page(c, filter, kind);
      expect(r.body.code, r.body.message).toBe(0);
      return (r.body.data.items as { task_id: string }[]).map((t) => t.task_id);
    };

    // User: own only; another user's id filter finds nothing.
    const userIds = await ids(w.user);
    expect(userIds).toContain(mine.body.id);
    expect(userIds).not.toContain(theirs.body.id);
    expect(await ids(w.user, { user_id: w.other.client.userId })).toEqual([]);
    // Reseller: its user's, not the outsider's.
    const resellerIds = await ids(w.reseller);
    expect(resellerIds).toContain(theirs.body.id);
    expect(resellerIds).not.toContain(mine.body.id);
    // Admin: everyone's, filterable by user.
    const adminIds = await ids(w.admin);
    expect(adminIds).toEqual(expect.arrayContaining([mine.body.id, theirs.body.id]));
    expect(await ids(w.admin, { user_id: w.other.client.userId })).toEqual([theirs.body.id]);

    // Newest first, and the row as the wire shape.
    const all = (await page(w.admin)).body.data;
    expect(all.paging.total).toBeGreaterThanOrEqual(2);
    expect(all.items[0].task_id).toBe(theirs.body.id);
    const wire = (all.items as Record<string, unknown>[]).find((t) => t.task_id === mine.body.id);
    expect(wire).toMatchObject({
      id: mineRow.id,
      kind: 'videosecondcreation',
      trace_id: mine.trace,
      user_id: w.user.userId,
      app_id: w.appId,
      model: 'vsc-test',
      people_id: 'host-A',
      line_type: 1,
      status: 3,
      reserved: PER_CALL * VSC_DISCOUNT,
      total_price: PER_CALL * VSC_DISCOUNT,
      video_url: mineRow.video_url,
      video_pic: mineRow.video_pic,
      video_time: 10,
      err_msg: '',
    });
    expect(wire?.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(wire?.completed_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    // Filters.
    expect(await ids(w.admin, { task_id: mine.body.id })).toEqual([mine.body.id]);
    expect(await ids(w.admin, { trace_id: theirs.trace })).toEqual([theirs.body.id]);
    expect(await ids(w.admin, { people_id: 'host-a' })).toEqual([mine.body.id]);
    expect(await ids(w.admin, { line_type: 1, user_id: w.user.userId })).toContain(mine.body.id);
    expect(await ids(w.admin, { line_type: 0, user_id: w.user.userId })).not.toContain(mine.body.id);
    expect(await ids(w.admin, { status: 3, app_id: w.appId })).toContain(mine.body.id);
    expect(await ids(w.admin, { status: -1, app_id: w.appId })).not.toContain(mine.body.id);
    // The original console's encodings: numbers as text, "" and [] when cleared.
    expect(await ids(w.admin, { line_type: '1', status: '3', user_id: String(w.user.userId) })).toContain(mine.body.id);
    expect(await ids(w.admin, { line_type: '0', user_id: w.user.userId })).not.toContain(mine.body.id);
    expect(await ids(w.admin, { line_type: '', status: '', created_at: [], user_id: w.user.userId })).toContain(mine.body.id);
    expect(await ids(w.admin, { created_at: ['2000-01-01', '2000-01-02'] })).toEqual([]);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: w.server.app.ctx.config.timeZone }).format(new Date());
    expect(await ids(w.admin, { created_at: [today, today], task_id: mine.body.id })).toEqual([mine.body.id]);
    // Kinds are separate lists.
    expect(await ids(w.admin, {}, 'video')).not.toContain(mine.body.id);

    // Detail: in scope only.
    const detail = await w.user.get('/api/v1/task/videosecondcreation/detail', { id: mineRow.id });
    expect(detail.body).toMatchObject({ code: 0, data: { task_id: mine.body.id, total_price: PER_CALL * VSC_DISCOUNT } });
    for (const [c, id] of [[w.user, theirRow.id], [w.reseller, mineRow.id], [w.other.client, mineRow.id]] as const) {
      const r = await c.get('/api/v1/task/videosecondcreation/detail', { id });
      expect(r.status).toBe(200);
      expect(r.body.code).not.toBe(0);
      expect(r.body.data).toBeNull();
    }
    // The right id under another kind's path is not found either.
    expect((await w.admin.get('/api/v1/task/video/detail', { id: mineRow.id })).body.code).not.toBe(0);
    expect((await w.admin.get('/api/v1/task/videosecondcreation/detail', { id: mineRow.id })).body.code).toBe(0);

    // Bad filters name the field; no session is a 401.
    for (const [filter, field] of [
      [{ status: 7 }, 'status'],
      [{ line_type: 3 }, 'line_type'],
      [{ created_at: ['yesterday'] }, 'created_at'],
      [{ user_id: 'abc' }, 'user_id'],
      [{ current: 0 }, 'current'],
    ] as const) {
      const r = await page(w.admin, filter);
      expect(r.status).toBe(200);
      expect(r.body.code, JSON.stringify(filter)).toBe(51);
      expect(r.body.message).toContain(field);
    }
    const anonymous = await fetch(`${w.server.url}/api/v1/task/video/page`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(anonymous.status).toBe(401);
  });
});
