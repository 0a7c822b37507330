// Bills (docs/ORIGINAL-API.md §1.5, §3.12; docs/SPEC.md §3.10 Bill): daily per-user statistics built from the call logs.
import { z } from 'zod';
import { idField, pageSchema } from '../schemas/common';
import { rangeish } from '../schemas/encodings';
import { idListField, ownerIdFilter } from '../schemas/usage-limits';

export const BILL_PAGE = '/finance/bill/page';
export const BILL_DETAIL = '/finance/bill/detail';
export const BILL_EXPORT = '/finance/bill/export';
/** Longest bill range a query or export may span. */
export const BILL_MAX_DAYS = 366;

const statDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const billPageSchema = pageSchema.extend({
  user_id: ownerIdFilter,
  stat_date: rangeish(z.array(statDate).length(2).optional()),
});
export const billDetailSchema = z.object({ id: idField });
/** `ids` win over the range; without ids the bill date range is required (docs/SPEC.md §2.4). */
export const billExportSchema = z.object({ ids: idListField.optional(), stat_date: z.array(statDate).length(2).optional(), user_id: ownerIdFilter });

/**
 * A bill's figures in the original console's meaning (docs/ORIGINAL-API.md §3.12, docs/SPEC.md §3.10.1): `tokens`
 * is the charge in quota units (not a token count), `spend` the same charge in dollars; the tokens used
 * are `token_count`.
 */
interface Measures {
  /** Calls. */
  total: number;
  /** The charge, quota units. */
  tokens: number;
  /** prompt + completion tokens. */
  token_count: number;
  /** The charge, dollars. */
  spend: number;
  abnormal: number;
  /** The failed calls' charge: quota units, and dollars. */
  abnormal_tokens: number;
  abnormal_spend: number;
}

export interface Bill extends Measures {
  id: string;
  user_id: number;
  rid: number;
  stat_date: string;
  /** Distinct models used that day. */
  models: number;
  updated_at: string;
  /**
   * A reseller's user's day, shown to admins and that reseller only (never to the user): what the calls
   * cost the reseller at its floor, and its margin (tokens − floor_spend), in quota units.
   */
  floor_spend?: number;
  margin?: number;
}

export interface ModelStat extends Measures {
  model: string;
}

export interface BillDetail extends Bill {
  model_stats: ModelStat[];
}
