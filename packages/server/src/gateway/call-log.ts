// Call-log rows (docs/SPEC.md §3.12): one per upstream attempt, or one for a call refused after its key
// was recognised (refusal-log.ts). Secrets never reach them: the provider key and
// the app key appear masked only.
import { LINE_KINDS, LINE_UNITS, type LineItem } from '@fastgate/core/entities/call-log';
import { flag } from '@fastgate/core/resource';
import type { NewCallLog } from '../db/schema';
import type { Usage } from '../providers/types';
import { FULL_PRICE_BP } from '../billing/floor';
import { storableRow } from '../db/text';
import { newId } from '../http/ids';
import type { Caller } from './admit';
import type { Route } from './pick';
import type { Resolution } from './resolve';
import type { Snapshot } from './snapshot';

/** What stays the same for every attempt of one request. */
export interface Plan {
  traceId: string;
  endpoint: string;
  /** Epoch ms when the request arrived, and the high-resolution start for durations. */
  reqTime: number;
  started: number;
  caller: Caller;
  resolution: Resolution;
  requested: string;
  stream: boolean;
  /**
   * The request's messages as sent, JSON-encoded into the row only when the system config keeps them (not
   * by default): an agent's conversation can be megabytes, encoded for nothing on every call otherwise.
   */
  messages: unknown;
  prompt: string;
}

/**
 * A call refused after its key was recognised (refusal-log.ts): no attempt was made and the model may
 * be unknown, so the row names the model as asked and the type the endpoint serves.
 */
export interface RefusedPlan extends Omit<Plan, 'resolution'> {
  resolution: Resolution | undefined;
  modelType: number;
}

export interface Attempt {
  route?: Route;
  status: number;
  errMsg?: string;
  connMs?: number;
  usage?: Pick<Usage, 'prompt_tokens' | 'completion_tokens'> & Partial<Usage>;
  quota?: number;
  lineItems?: readonly LineItem[];
  promptRatio?: number;
  completionRatio?: number;
  completion?: string;
  retryCount?: number;
}

const KINDS: ReadonlySet<string> = new Set(LINE_KINDS);
const UNITS: ReadonlySet<string> = new Set(LINE_UNITS);
/** A number as JSON.stringify writes it. */
const jsonNumber = (n: number) => (Number.isFinite(n) ? String(n) : 'null');

/**
 * JSON.stringify(items) for the row, written out: Node 20's JSON.stringify took ~2 µs for a call's two
 * items, ~2 % of the main thread's instructions (docs/BENCHMARKS.md, twenty-first session). The same text
 * for every item of core's LineItem shape; an item whose kind or unit is not one of core's lists goes
 * through JSON.stringify.
 */
export function lineItemsJson(items: readonly LineItem[]): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    const l = items[i]!;
    if (!KINDS.has(l.kind) || !UNITS.has(l.unit)) return JSON.stringify(items);
    out += `${i > 0 ? ',' : ''}{"kind":"${l.kind}","unit":"${l.unit}","quantity":${jsonNumber(l.quantity)},"unit_price":${jsonNumber(l.unit_price)},"quota":${jsonNumber(l.quota)}`;
    if (l.tier !== undefined) out += `,"tier":${jsonNumber(l.tier)}`;
    if (l.detail !== undefined) out += `,"detail":${JSON.stringify(l.detail)}`;
    out += '}';
  }
  return `${out}]`;
}

export function callLog(snapshot: Snapshot, plan: Plan | RefusedPlan, index: number, a: Attempt): NewCallLog {
  const { caller, resolution } = plan;
  const model = resolution?.model;
  const target = resolution?.target;
  const group = resolution?.group;
  const corp = model && snapshot.corps.get(model.corp);
  const now = Date.now();
  const total = performance.now() - plan.started;
  const keep = snapshot.sys.log.open ? snapshot.sys.log.chat_records : [];
  // Prompts, model names and upstream texts are what clients and upstreams sent: one NUL must not fail the ledger's batch.
  return storableRow({
    id: newId(),
    trace_id: plan.traceId,
    attempt: index,
    user_id: caller.user.user_id,
    app_id: caller.app.app_id,
    rid: caller.user.rid,
    type: model ? model.type : 'modelType' in plan ? plan.modelType : 0,
    stream: plan.stream ? 1 : 0,
    is_enable_model_agent: a.route?.agent ? 1 : 0,
    is_retry: index > 0 ? 1 : 0,
    retry_count: a.retryCount ?? index,
    is_smart_match: 0,
    status: a.status,
    prompt_tokens: a.usage?.prompt_tokens ?? 0,
    completion_tokens: a.usage?.completion_tokens ?? 0,
    cached_tokens: a.usage?.cached_tokens ?? 0,
    cache_write_tokens: a.usage?.cache_write_tokens ?? 0,
    reasoning_tokens: a.usage?.reasoning_tokens ?? 0,
    total_tokens: (a.usage?.prompt_tokens ?? 0) + (a.usage?.completion_tokens ?? 0),
    total_price: a.quota ?? 0,
    discount_bp: resolution ? resolution.discountBp : FULL_PRICE_BP,
    floor_bp: resolution ? resolution.floorBp : 0,
    // As run.ts accountsOf charges the user's balance: the ledger verifier needs to know which calls did.
    is_limit_quota: flag.encode(caller.user.is_limit_quota),
    conn_time: Math.round(a.connMs ?? 0),
    duration: Math.round(total - (a.connMs ?? 0)),
    total_time: Math.round(total),
    internal_time: 0,
    req_time: plan.reqTime,
    created_at: now,
    prompt_ratio: a.promptRatio ?? 0,
    completion_ratio: a.completionRatio ?? 0,
    line_items: a.lineItems?.length ? lineItemsJson(a.lineItems) : '',
    endpoint: plan.endpoint,
    creator: caller.appKey.key_mask,
    app_key_id: caller.appKey.id,
    corp: model?.corp ?? '',
    corp_name: corp?.name ?? '',
    group_id: group?.id ?? '',
    group_name: group?.name ?? '',
    model_id: model?.id ?? '',
    name: model?.name ?? '',
    model: plan.requested,
    real_model_id: target?.id ?? '',
    real_model: a.route?.target.model ?? target?.model ?? '',
    model_agent_id: a.route?.agent?.id ?? '',
    model_agent_name: a.route?.agent?.name ?? '',
    key_id: a.route?.key.id ?? '',
    key_mask: a.route?.key.key_mask ?? '',
    client_ip: caller.ip,
    remote_ip: caller.remoteIp,
    err_msg: (a.errMsg ?? '').slice(0, 2000),
    prompt: keep.includes('prompt') ? plan.prompt.slice(0, 20_000) : '',
    completion: keep.includes('completion') ? (a.completion ?? '').slice(0, 20_000) : '',
    messages: keep.includes('messages') && plan.messages !== undefined ? JSON.stringify(plan.messages).slice(0, 100_000) : '',
  });
}
