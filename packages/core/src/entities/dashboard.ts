// Dashboard workplace (docs/ORIGINAL-API.md §1.4). Everything is scoped by role (user: own; reseller: its users
// and itself; admin: all) and read from the daily statistics, except the live per-second/minute rates.
import { z } from 'zod';

export const DASHBOARD_BASE_DATA = '/dashboard/base/data';
/** `GET /dashboard/call/data/:days`, `GET /dashboard/model/percent/:days`. */
export const DASHBOARD_CALL_DATA = '/dashboard/call/data/:days';
export const DASHBOARD_MODEL_PERCENT = '/dashboard/model/percent/:days';
export const DASHBOARD_TOP = '/dashboard/data/top';
/** `GET /dashboard/margin/:days` (resellers): what its users paid against what that cost it at its floor. */
export const DASHBOARD_MARGIN = '/dashboard/margin/:days';
/** POST with the log filter (entities/call-log.ts logFilterSchema). */
export const DASHBOARD_PER_SECOND = '/dashboard/per/second';
export const DASHBOARD_PER_MINUTE = '/dashboard/per/minute';

export const TREND_DAYS = [7, 15, 30] as const;
export const TOP_DAYS = [1, 7, 15, 30] as const;
export const daysParamSchema = z.object({ days: z.coerce.number().int().refine((d) => (TREND_DAYS as readonly number[]).includes(d) || d === 1, 'days: 1, 7, 15 or 30') });
const TOP_TYPES = ['user', 'app', 'app_key', 'model'] as const;
export type TopType = (typeof TOP_TYPES)[number];
export const topQuerySchema = z.object({
  days: z.coerce.number().int().refine((d) => (TOP_DAYS as readonly number[]).includes(d), 'days: 1, 7, 15 or 30').default(1),
  data_type: z.enum(TOP_TYPES).default('user'),
});

/** Counts shown as cards; which ones a role gets: admin all, reseller its users', user its own. */
export interface BaseData {
  app: number;
  today_app: number;
  model: number;
  app_key: number;
  /** Provider keys (admin). */
  model_key?: number;
  /** Users (admin, reseller). */
  user?: number;
  today_user?: number;
  call: number;
  group: number;
}

/** One day of the trend; gaps are zero-filled. spend in quota units. */
export interface TrendPoint {
  /** "MM-DD". */
  date: string;
  spend: number;
  call: number;
  tokens: number;
  /** Distinct users and apps that called that day. */
  user: number;
  app: number;
  abnormal: number;
}

/** A Top 10 entry, ranked by spend. `models` for users; `user` (distinct users) for models. */
export interface TopItem {
  user_id?: number;
  app_id?: number;
  /** Masked app key (users only). */
  app_key?: string;
  model?: string;
  /**
   * The ranked user's name (its account when unnamed) or app's name; for an app key, its app's name.
   * Resolved in the caller's data scope: absent for a record the caller may no longer see.
   */
  name?: string;
  call: number;
  tokens: number;
  spend: number;
  abnormal: number;
  models?: number;
  user?: number;
}

export interface ModelPercent {
  models: string[];
  /** value = calls. */
  items: { name: string; value: number }[];
}

/** One day of a reseller's margin, quota units; gaps are zero-filled. */
interface MarginPoint {
  /** "MM-DD". */
  date: string;
  /** What its users paid. */
  spend: number;
  /** What those calls cost the reseller at its floor. */
  floor_spend: number;
  margin: number;
}

/** A reseller's margin over the window: sums and the days. Calls logged before floors existed count as costing nothing. */
export interface Margin {
  /** The reseller's floor now, as a fraction of list price. */
  floor: number;
  spend: number;
  floor_spend: number;
  margin: number;
  items: MarginPoint[];
}
