// Call logs on the wire (docs/ORIGINAL-API.md §3.14; core CallLogRow / CallLogDetail): list rows, the detail with
// its spend breakdown and every attempt of the trace. Admin-only fields are left out for users and
// resellers, and their error texts pass the shield lists the gateway applies to its own errors.
import type { Role } from '@fastgate/core/constants';
import { LINE_KINDS, LINE_UNITS, type CallLogAttempt, type CallLogDetail, type CallLogRow, type LineItem, type SpendBreakdown, type TextQuota } from '@fastgate/core/entities/call-log';
import type { SysConfig } from '@fastgate/core/sys-config';
import type { Ctx } from '../context';
import type { CallLogRow as StoredLog, ModelAgentRow } from '../db/schema';
import { shieldMessage } from '../gateway/shield';
import { formatTime } from '../http/time';
import { getSysSection } from '../settings/sys-config';

/** What a list row reads: never the (large) prompt, completion and messages. */
export const ROW_COLUMNS = [
  'id', 'trace_id', 'user_id', 'app_id', 'corp', 'corp_name', 'model', 'type', 'stream', 'prompt_tokens', 'completion_tokens', 'total_tokens',
  'total_price', 'conn_time', 'duration', 'total_time', 'req_time', 'status', 'creator', 'internal_time', 'is_smart_match', 'model_agent_name', 'real_model',
] as const;
export type RowColumns = Pick<StoredLog, (typeof ROW_COLUMNS)[number]>;

export type ShieldLists = Pick<SysConfig, 'user_shield_error' | 'reseller_shield_error' | 'not_shield_error'>;

/** The shield lists, read only for the roles they apply to. */
export async function shieldLists(ctx: Ctx, role: Role): Promise<ShieldLists | undefined> {
  if (role === 'admin') return undefined;
  const [user_shield_error, reseller_shield_error, not_shield_error] = await Promise.all([
    getSysSection(ctx.db, 'user_shield_error'),
    getSysSection(ctx.db, 'reseller_shield_error'),
    getSysSection(ctx.db, 'not_shield_error'),
  ]);
  return { user_shield_error, reseller_shield_error, not_shield_error };
}

/** An upstream error text as `role` may read it (gateway/shield.ts, the same rule as live errors). */
export function visibleError(lists: ShieldLists | undefined, role: Role, text: string, traceId: string): string {
  return text && lists ? shieldMessage(lists, role, text, traceId) : text;
}

export function logRow(row: RowColumns, role: Role, timeZone: string): CallLogRow {
  const out: CallLogRow = {
    id: row.id,
    trace_id: row.trace_id,
    user_id: row.user_id,
    app_id: row.app_id,
    corp: row.corp,
    corp_name: row.corp_name,
    model: row.model,
    type: row.type,
    stream: row.stream === 1,
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    // The original's meaning (docs/SPEC.md §3.12.1): total_tokens is the charge in quota units.
    total_tokens: row.total_price,
    token_count: row.total_tokens,
    total_price: row.total_price,
    conn_time: row.conn_time,
    duration: row.duration,
    total_time: row.total_time,
    req_time: formatTime(row.req_time, timeZone),
    status: row.status,
    creator: row.creator,
  };
  if (role === 'admin') {
    out.internal_time = row.internal_time;
    out.is_smart_match = row.is_smart_match === 1;
    out.model_agent_name = row.model_agent_name;
    out.real_model = row.real_model;
  }
  return out;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** One stored item as the wire types it; anything else (a kind this version does not know) is left out. */
function isLineItem(v: unknown): v is LineItem {
  if (!v || typeof v !== 'object') return false;
  const i = v as Record<string, unknown>;
  return (LINE_KINDS as readonly unknown[]).includes(i.kind) && (LINE_UNITS as readonly unknown[]).includes(i.unit) && isNumber(i.quantity) && isNumber(i.unit_price) && isNumber(i.quota);
}

/** The stored line items (JSON the gateway wrote); none for rows written before they were kept. */
export function lineItemsOf(text: string): LineItem[] {
  if (!text) return [];
  try {
    const items = JSON.parse(text) as unknown;
    return Array.isArray(items) ? items.filter(isLineItem) : [];
  } catch {
    return [];
  }
}

/** Kept messages are JSON text (possibly cut at the size cap): decoded when whole, else the raw text. */
function decodeMessages(text: string): unknown {
  if (!text) return [];
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function attemptWire(row: StoredLog, role: Role, lists: ShieldLists | undefined): CallLogAttempt {
  const out: CallLogAttempt = {
    id: row.id,
    attempt: row.attempt,
    status: row.status,
    model: row.model,
    // The upstream model name (model replacement) is the operator's business.
    real_model: role === 'admin' ? row.real_model : '',
    conn_time: row.conn_time,
    duration: row.duration,
    total_time: row.total_time,
    total_price: row.total_price,
    err_msg: visibleError(lists, role, row.err_msg, row.trace_id),
  };
  if (role === 'admin') {
    out.model_agent_name = row.model_agent_name;
    out.key = row.key_mask;
  }
  return out;
}

/** What the admin's detail adds from other tables: the model agent as it is now, and the real model's name. */
export interface DetailRefs {
  agent?: Pick<ModelAgentRow, 'id' | 'name' | 'corp' | 'base_url' | 'path' | 'weight' | 'lb_strategy' | 'status'>;
  realModelName?: string;
}

/** The admin's detail references (one query each, only for what the log names). */
export async function detailRefs(ctx: Ctx, row: StoredLog, role: Role): Promise<DetailRefs> {
  if (role !== 'admin') return {};
  const [agent, real] = await Promise.all([
    row.model_agent_id ? ctx.db.selectFrom('model_agents').select(['id', 'name', 'corp', 'base_url', 'path', 'weight', 'lb_strategy', 'status']).where('id', '=', row.model_agent_id).executeTakeFirst() : undefined,
    row.real_model_id ? ctx.db.selectFrom('models').select('name').where('id', '=', row.real_model_id).executeTakeFirst() : undefined,
  ]);
  return { agent, realModelName: real?.name };
}

/** The original's text_quota from the line items: a per-call fee makes it "per call" (docs/SPEC.md §3.12.1). */
function textQuota(row: StoredLog, items: LineItem[]): TextQuota {
  const price = (kind: LineItem['kind']) => items.find((i) => i.kind === kind)?.unit_price ?? 0;
  const fee = price('request');
  return { billing_method: fee > 0 ? 2 : 1, prompt_ratio: row.prompt_ratio, completion_ratio: row.completion_ratio, cached_ratio: price('cached_input'), fixed_quota: fee };
}

/** `attempts`: every row of the trace in attempt order (the row itself included). */
export function logDetail(row: StoredLog, attempts: StoredLog[], role: Role, lists: ShieldLists | undefined, timeZone: string, refs: DetailRefs = {}): CallLogDetail {
  const discount = row.discount_bp / 10_000;
  const spend: SpendBreakdown = {
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    cached_tokens: row.cached_tokens,
    cache_write_tokens: row.cache_write_tokens,
    reasoning_tokens: row.reasoning_tokens,
    prompt_ratio: row.prompt_ratio,
    completion_ratio: row.completion_ratio,
    discount,
    total_price: row.total_price,
    line_items: lineItemsOf(row.line_items),
  };
  const text_quota = textQuota(row, spend.line_items);
  const agent = role === 'admin' && row.model_agent_id ? (refs.agent ?? { id: row.model_agent_id, name: row.model_agent_name }) : null;
  // The error that made this attempt a retry: the last failed attempt before it.
  const previous = attempts.filter((a) => a.attempt < row.attempt && a.err_msg).at(-1);
  const out: CallLogDetail = {
    ...logRow(row, role, timeZone),
    app_key_id: row.app_key_id,
    group_id: row.group_id,
    group_name: row.group_name,
    discount,
    endpoint: row.endpoint,
    messages: decodeMessages(row.messages),
    prompt: row.prompt,
    completion: row.completion,
    cached_tokens: row.cached_tokens,
    prompt_ratio: row.prompt_ratio,
    completion_ratio: row.completion_ratio,
    spend,
    retry: { is_retry: row.is_retry === 1, retry_count: row.retry_count, err_msg: previous ? visibleError(lists, role, previous.err_msg, row.trace_id) : '' },
    client_ip: row.client_ip,
    err_msg: visibleError(lists, role, row.err_msg, row.trace_id),
    created_at: formatTime(row.created_at, timeZone),
    attempts: attempts.map((a) => attemptWire(a, role, lists)),
    text_quota,
    multimodal_quota: { text_quota, vision_quotas: [] },
    host: '',
    search_tokens: spend.line_items.filter((i) => i.kind === 'search').reduce((n, i) => n + i.quantity, 0),
    cache_write_tokens: row.cache_write_tokens,
    cache_hit_tokens: row.cached_tokens,
    real_model_name: role === 'admin' ? (refs.realModelName ?? '') : '',
    model_agent: agent,
  };
  if (role === 'admin') {
    out.model_id = row.model_id;
    out.name = row.name;
    out.key = row.key_mask;
    out.is_enable_model_agent = row.is_enable_model_agent === 1;
    out.model_agent_id = row.model_agent_id;
    out.real_model_id = row.real_model_id;
    out.remote_ip = row.remote_ip;
  }
  return out;
}
