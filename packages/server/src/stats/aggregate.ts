// Daily statistics from call-log rows (docs/SPEC.md §3.10 Bill; docs/ORIGINAL-API.md §3.12): the pure half of the statistics
// job. One call log row is one upstream attempt, so:
//   - a call is a row that is not a retried attempt (status 3) and not a smart-match decision;
//   - tokens and spend count every row (each attempt that was charged was charged);
//   - abnormal calls are calls that ended failed (-1) or aborted (2);
//   - floor_spend is what the charges cost the caller's reseller at the floor the call was priced under;
//   - exempt_spend is the charges no balance paid (the caller was exempt), for the ledger verifier.
import { LogStatus } from '@fastgate/core/entities/log-status';
import { floorCost } from '../billing/floor';
import { statDateOf } from './dates';

/** The call-log columns the statistics read. */
export const STAT_SOURCE_COLUMNS = [
  'id',
  'created_at',
  'req_time',
  'user_id',
  'rid',
  'app_id',
  'app_key_id',
  'creator',
  'model',
  'status',
  'is_smart_match',
  'prompt_tokens',
  'completion_tokens',
  'total_price',
  'discount_bp',
  'floor_bp',
  'is_limit_quota',
] as const;

export interface StatSourceRow {
  id: string;
  created_at: number;
  req_time: number;
  user_id: number;
  rid: number;
  app_id: number;
  app_key_id: string;
  creator: string;
  model: string;
  status: number;
  is_smart_match: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_price: number;
  discount_bp: number;
  floor_bp: number;
  is_limit_quota: number;
}

export interface Measures {
  total: number;
  tokens: number;
  spend: number;
  abnormal: number;
  abnormal_spend: number;
  floor_spend: number;
  exempt_spend: number;
}

interface Owner {
  stat_date: string;
  user_id: number;
  rid: number;
}

type UserDelta = Owner & Measures;
type UserModelDelta = Owner & Measures & { model: string };
type ModelDelta = Measures & { stat_date: string; model: string };
type AppDelta = Owner & Measures & { app_id: number };
type AppKeyDelta = Owner & Measures & { app_id: number; app_key_id: string; creator: string };
/** The latest day of a chunk on which a user called a model (stat_model_user keeps the latest of all). */
export interface ModelUserDelta {
  model: string;
  user_id: number;
  last_date: string;
}

/** What one chunk of rows adds to each statistics table, keyed by the table's unique key. */
export interface Deltas {
  users: Map<string, UserDelta>;
  userModels: Map<string, UserModelDelta>;
  /** The whole installation per model and day: the sums of `userModels` over users. */
  models: Map<string, ModelDelta>;
  apps: Map<string, AppDelta>;
  appKeys: Map<string, AppKeyDelta>;
  /** Per (model, user): the chunk's latest stat date. */
  modelUsers: Map<string, ModelUserDelta>;
}

const emptyMeasures = (): Measures => ({ total: 0, tokens: 0, spend: 0, abnormal: 0, abnormal_spend: 0, floor_spend: 0, exempt_spend: 0 });

/** The measures one row contributes. */
function measuresOf(row: Pick<StatSourceRow, 'status' | 'is_smart_match' | 'prompt_tokens' | 'completion_tokens' | 'total_price' | 'discount_bp' | 'floor_bp' | 'is_limit_quota'>): Measures {
  const call = row.status !== LogStatus.Retry && !row.is_smart_match;
  const abnormal = call && (row.status === LogStatus.Failed || row.status === LogStatus.Aborted);
  const spend = Number(row.total_price);
  return {
    total: call ? 1 : 0,
    tokens: Number(row.prompt_tokens) + Number(row.completion_tokens),
    spend,
    abnormal: abnormal ? 1 : 0,
    abnormal_spend: abnormal ? spend : 0,
    floor_spend: floorCost(spend, Number(row.discount_bp), Number(row.floor_bp)),
    exempt_spend: Number(row.is_limit_quota) === 0 ? spend : 0,
  };
}

function add(into: Measures, m: Measures): void {
  into.total += m.total;
  into.tokens += m.tokens;
  into.spend += m.spend;
  into.abnormal += m.abnormal;
  into.abnormal_spend += m.abnormal_spend;
  into.floor_spend += m.floor_spend;
  into.exempt_spend += m.exempt_spend;
}

function bump<T extends Measures>(map: Map<string, T>, key: string, make: () => T, m: Measures): T {
  let entry = map.get(key);
  if (!entry) map.set(key, (entry = make()));
  add(entry, m);
  return entry;
}

export const emptyDeltas = (): Deltas => ({ users: new Map(), userModels: new Map(), models: new Map(), apps: new Map(), appKeys: new Map(), modelUsers: new Map() });

/**
 * Sums rows per (user, day), (user, model, day), (model, day), (app, day) and (app key, day), and keeps
 * each (model, user)'s latest day; the day is req_time's in `timeZone`. Adds to `out`: rows read in several
 * pieces, in write order, sum as if read at once.
 */
export function aggregate(rows: readonly StatSourceRow[], timeZone: string, out: Deltas): void {
  for (const row of rows) {
    const m = measuresOf(row);
    const stat_date = statDateOf(Number(row.req_time), timeZone);
    const owner = (): Owner => ({ stat_date, user_id: row.user_id, rid: row.rid });
    // The latest rid wins (rows come in write order), so a user moved to another reseller follows it.
    bump(out.users, `${row.user_id}|${stat_date}`, () => ({ ...owner(), ...emptyMeasures() }), m).rid = row.rid;
    bump(out.userModels, `${row.user_id}|${stat_date}|${row.model}`, () => ({ ...owner(), model: row.model, ...emptyMeasures() }), m).rid = row.rid;
    bump(out.models, `${row.model}|${stat_date}`, () => ({ stat_date, model: row.model, ...emptyMeasures() }), m);
    const pair = `${row.model}|${row.user_id}`;
    const seen = out.modelUsers.get(pair);
    if (!seen) out.modelUsers.set(pair, { model: row.model, user_id: row.user_id, last_date: stat_date });
    else if (stat_date > seen.last_date) seen.last_date = stat_date;
    // Calls refused before an app was known carry no app (0) or key (''): they belong to no ranking.
    if (row.app_id) bump(out.apps, `${row.app_id}|${stat_date}`, () => ({ ...owner(), app_id: row.app_id, ...emptyMeasures() }), m).rid = row.rid;
    if (row.app_key_id) {
      const key = bump(out.appKeys, `${row.app_key_id}|${stat_date}`, () => ({ ...owner(), app_id: row.app_id, app_key_id: row.app_key_id, creator: row.creator, ...emptyMeasures() }), m);
      key.rid = row.rid;
      key.creator = row.creator;
    }
  }
}
