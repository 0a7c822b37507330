// Payload pieces every CRUD resource shares (docs/ORIGINAL-API.md §1.2, §2).
import { z } from 'zod';
import { Status } from '../constants';
import { boolField, numberish, rangeish } from './encodings';

export const idField = z.string().trim().min(1).max(32);
/** The largest value of an `integer` column (PostgreSQL int4): numeric ids and filters stay within it. */
export const INT4_MAX = 2_147_483_647;
export const statusField = numberish(z.union([z.literal(Status.Normal), z.literal(Status.Disabled)]));
export const remarkField = z.string().trim().max(500);
/** Names and codes of apps, agents and corps: at most 100 characters (docs/SPEC.md §5). */
export const name100 = z.string().trim().min(1).max(100);
/** A text filter: substring match; empty = no filter. */
export const textFilter = z.string().trim().max(200).optional();
/** `status: 0` or absent = no filter (docs/ORIGINAL-API.md §2.5). */
export const statusFilter = numberish(z.union([z.literal(0), z.literal(Status.Normal), z.literal(Status.Disabled)]).optional());
/** ["YYYY-MM-DD", "YYYY-MM-DD"] (or with times); `[]` (the original console's cleared picker) = no filter. */
export const dateRangeFilter = rangeish(z.array(z.string().max(19)).length(2).optional());

export const pageSchema = z.object({
  // A million pages of 1000 rows: the offset stays a safe integer on both databases.
  current: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(20),
});
export type PageInput = z.infer<typeof pageSchema>;

export const idSchema = z.object({ id: idField });
export const changeStatusSchema = z.object({ id: idField, status: statusField });
export const batchSchema = z.object({
  action: z.string().trim().min(1).max(32),
  ids: z.array(idField).max(1000).default([]),
  value: z.unknown().optional(),
});
export type BatchInput = z.infer<typeof batchSchema>;

/** Boolean page filters arrive as booleans or as "true"/"false" strings (docs/ORIGINAL-API.md §3.7). */
export const boolFilter = z
  .union([z.boolean(), z.enum(['true', 'false', ''])])
  .optional()
  .transform((v) => (v === '' || v === undefined ? undefined : v === true || v === 'true'));

export const changePublicSchema = z.object({ id: idField, is_public: boolField });
