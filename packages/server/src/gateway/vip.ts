// The VIP level whose speed limits apply to a caller: the user's own (enabled, not expired) or its
// owner's default — the same rule as the console (vip/rules.ts effectiveLevel), from the snapshot.
import { effectiveLevel, vipOwnerOf } from '../vip/rules';
import type { Snapshot, SnapUser, SnapVip } from './snapshot';

export function vipLevelOf(snapshot: Snapshot, user: SnapUser, now: number): SnapVip | undefined {
  if (!snapshot.vipLevels.size) return undefined;
  const owner = vipOwnerOf(user);
  const levels = [...snapshot.vipLevels.values()].filter((l) => l.user_id === owner);
  return levels.length ? effectiveLevel(user, levels, now)?.level : undefined;
}
