// A group as the access rules (access.ts) and the gateway's snapshot read it: the stored row with the
// group resource's fields decoded (flags, id lists, rate limits, forwarding). The discount and the
// expiry stay in their stored units (discount_bp, epoch ms).
import { groupResource } from '@fastgate/core/entities/group';
import type { GroupRow } from '../db/schema';

type GroupFieldsStored = ReturnType<typeof groupResource.decode>;
export type GroupRecord = Omit<GroupRow, keyof GroupFieldsStored> & GroupFieldsStored;

export function groupRecord(row: GroupRow): GroupRecord {
  const g = groupResource.decode(row);
  // Spelt out: an optional field spread over the row's column would keep the column's type beside its own.
  return { ...row, ...g, forward_config: g.forward_config };
}
