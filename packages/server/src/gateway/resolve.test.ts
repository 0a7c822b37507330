import { describe, expect, it } from 'vitest';
import { usableFor } from './resolve';
import type { SnapGroup, Snapshot, SnapUser } from './snapshot';

const T = 1_800_000_000_000;

const group = (id: string, over: Partial<SnapGroup> = {}) =>
  ({ id, user_id: 0, status: 1, expires_at: null, is_public: true, is_default: false, weight: 1, updated_at: 0, models: [], vip_levels: [], ...over }) as unknown as SnapGroup;
const user = (over: Partial<SnapUser> = {}) => ({ role: 'user', user_id: 7, rid: 0, groups: '[]', models: '["m-direct"]', ...over }) as unknown as SnapUser;
const snapshotOf = (...groups: SnapGroup[]) => ({ groupList: groups }) as unknown as Snapshot;
const ids = (u: { groups: readonly SnapGroup[] }) => u.groups.map((g) => g.id);

describe('usableFor (kept per user between calls)', () => {
  it('drops a group at its expiry, and takes it back for a moment before it', () => {
    const snap = snapshotOf(group('lasting'), group('expiring', { expires_at: T }));
    const u = user();
    expect(ids(usableFor(snap, { user: u }, T - 1))).toEqual(['expiring', 'lasting']);
    expect(ids(usableFor(snap, { user: u }, T))).toEqual(['lasting']);
    // The clock stepped back: what was made for a later moment is not reused.
    expect(ids(usableFor(snap, { user: u }, T - 5))).toEqual(['expiring', 'lasting']);
  });

  it('follows a reload of the groups, of the user and of the VIP level', () => {
    const u = user();
    const first = snapshotOf(group('a'));
    expect(ids(usableFor(first, { user: u }, T))).toEqual(['a']);
    expect(ids(usableFor(snapshotOf(group('a'), group('b', { weight: 5 })), { user: u }, T))).toEqual(['b', 'a']);

    const granted = snapshotOf(group('private', { is_public: false }));
    expect(ids(usableFor(granted, { user: u }, T))).toEqual([]);
    expect(ids(usableFor(granted, { user: user({ groups: '["private"]' }) }, T))).toEqual(['private']);
    expect(ids(usableFor(granted, { user: u, vip: { id: 'v1', groups: ['private'] } as never }, T))).toEqual(['private']);
    expect(ids(usableFor(granted, { user: u }, T))).toEqual([]);
  });

  it('gives the models granted to the user directly', () => {
    expect([...usableFor(snapshotOf(), { user: user() }, T).direct]).toEqual(['m-direct']);
    expect([...usableFor(snapshotOf(), { user: user({ models: '' }) }, T).direct]).toEqual([]);
  });
});
