// `POST /log/<kind>/export` (docs/ORIGINAL-API.md §1.6, §2.9): the caller's rows as a streamed xlsx, read in keyset
// batches so 100,000 rows never sit in memory. `ids` win over the filter; the chat export needs both
// ends of the request time and a result (docs/SPEC.md §2.4), and no export spans more than LOG_EXPORT_MAX_DAYS.
import type { Role } from '@fastgate/core/constants';
import type { Locale } from '@fastgate/core/constants';
import { LOG_EXPORT_FILES, LOG_KIND_TYPES, LOG_EXPORT_MAX_DAYS, unitPriceUsd, type LineItem, type LogKind, type logExportSchema } from '@fastgate/core/entities/call-log';
import { t, type MessageKey } from '@fastgate/core/messages';
import { quotaToUsd } from '@fastgate/core/money';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { Caller } from '../http/crud';
import { formatTime } from '../http/time';
import { sendXlsx, type XlsxColumn } from '../http/xlsx';
import { checkSpan, fieldError, logsMatching, parseTimeRange, scopeLogs, type LogQuery } from './call-log-query';
import { lineItemsOf, shieldLists, visibleError } from './call-log-wire';

const BATCH = 1000;

const EXPORT_COLUMNS = [
  'id', 'trace_id', 'user_id', 'app_id', 'creator', 'model', 'real_model', 'model_agent_name', 'key_mask', 'stream', 'prompt_tokens', 'completion_tokens',
  'cached_tokens', 'cache_write_tokens', 'reasoning_tokens', 'line_items', 'total_price', 'conn_time', 'duration', 'total_time', 'internal_time', 'req_time',
  'status', 'err_msg', 'client_ip', 'remote_ip',
] as const;

interface ColumnSpec {
  key: string;
  label: MessageKey;
  width: number;
  /** Roles that get the column; absent = everyone. */
  roles?: readonly Role[];
}

const COLUMNS: ColumnSpec[] = [
  { key: 'req_time', label: 'log.col.req_time', width: 20 },
  { key: 'trace_id', label: 'log.col.trace_id', width: 34 },
  { key: 'user_id', label: 'log.col.user_id', width: 10, roles: ['admin', 'reseller'] },
  { key: 'app_id', label: 'log.col.app_id', width: 10 },
  { key: 'creator', label: 'log.col.creator', width: 20 },
  { key: 'model', label: 'log.col.model', width: 20 },
  { key: 'real_model', label: 'log.col.real_model', width: 20, roles: ['admin'] },
  { key: 'model_agent_name', label: 'log.col.model_agent', width: 16, roles: ['admin'] },
  { key: 'key', label: 'log.col.key', width: 20, roles: ['admin'] },
  { key: 'stream', label: 'log.col.stream', width: 6 },
  { key: 'prompt_tokens', label: 'log.col.prompt_tokens', width: 12 },
  { key: 'completion_tokens', label: 'log.col.completion_tokens', width: 12 },
  { key: 'cached_tokens', label: 'log.col.cached_tokens', width: 12 },
  { key: 'cache_write_tokens', label: 'log.col.cache_write_tokens', width: 12 },
  { key: 'reasoning_tokens', label: 'log.col.reasoning_tokens', width: 12 },
  { key: 'line_items', label: 'log.col.line_items', width: 60 },
  { key: 'spend', label: 'log.col.spend_usd', width: 12 },
  { key: 'conn_time', label: 'log.col.conn_time', width: 12 },
  { key: 'duration', label: 'log.col.duration', width: 12 },
  { key: 'total_time', label: 'log.col.total_time', width: 12 },
  { key: 'internal_time', label: 'log.col.internal_time', width: 10, roles: ['admin'] },
  { key: 'status', label: 'log.col.status', width: 8 },
  { key: 'err_msg', label: 'log.col.err_msg', width: 40 },
  { key: 'client_ip', label: 'log.col.client_ip', width: 16 },
  { key: 'remote_ip', label: 'log.col.remote_ip', width: 16, roles: ['admin'] },
];

export type LogExportInput = z.infer<typeof logExportSchema>;

/** Dollars with up to 10 decimals, never in exponent form. */
const dollars = (usd: number) => `$${usd.toLocaleString('en-US', { maximumFractionDigits: 10, useGrouping: false })}`;

/** "Input 2000 × $3 / 1M tokens = $0.006; …": each line item with its price, before rounding and discount. */
function lineItemsText(items: readonly LineItem[], locale: Locale): string {
  return items
    .map((i) => {
      const tier = i.tier ? ` (${t('log.line.tier', locale, { tokens: i.tier })})` : '';
      const what = `${t(`log.line.${i.kind}`, locale)}${i.detail ? ` ${i.detail}` : ''}`;
      return `${what} ${i.quantity} × ${dollars(unitPriceUsd(i))} ${t(`log.per.${i.unit}`, locale)} = ${dollars(quotaToUsd(i.quota))}${tier}`;
    })
    .join('; ');
}

/** The rows to export; every check runs here, before the download starts, so errors stay envelopes. */
async function exportQuery(c: Caller, kind: LogKind, input: LogExportInput): Promise<LogQuery> {
  if (input.ids?.length) return scopeLogs(c.ctx.db.selectFrom('call_logs'), c).where('type', 'in', [...LOG_KIND_TYPES[kind]]).where('id', 'in', input.ids);
  const time = parseTimeRange(c, input.req_time);
  if (kind === 'chat') {
    if (time.from === undefined || time.to === undefined) throw fieldError(c, 'req_time', 'log.range_required');
    if (input.status === undefined) throw fieldError(c, 'status', 'log.result_required');
  }
  checkSpan(c, time, LOG_EXPORT_MAX_DAYS);
  return logsMatching(c, kind, input, time);
}

export async function exportLogs(c: Caller, kind: LogKind, input: LogExportInput, reply: FastifyReply): Promise<FastifyReply> {
  const base = await exportQuery(c, kind, input);
  const { role } = c.session;
  const lists = await shieldLists(c.ctx, role);
  const tz = c.ctx.config.timeZone;
  const label = (key: MessageKey) => t(key, c.locale);
  const statusText = (s: number) => (s === 1 || s === 2 || s === 3 || s === -1 ? label(`log.status.${s}`) : String(s));

  // Keyset over (req_time desc, id desc): `req_time <= last` keeps an index range; the OR breaks ties.
  async function* batches() {
    let last: { req_time: number; id: string } | undefined;
    for (;;) {
      let q = base.select(EXPORT_COLUMNS).orderBy('req_time', 'desc').orderBy('id', 'desc').limit(BATCH);
      if (last) {
        const { req_time, id } = last;
        q = q.where('req_time', '<=', req_time).where((eb) => eb.or([eb('req_time', '<', req_time), eb('id', '<', id)]));
      }
      const rows = await q.execute();
      if (!rows.length) return;
      yield rows.map((r) => ({
        req_time: formatTime(r.req_time, tz),
        trace_id: r.trace_id,
        user_id: r.user_id,
        app_id: r.app_id,
        creator: r.creator,
        model: r.model,
        real_model: r.real_model,
        model_agent_name: r.model_agent_name,
        key: r.key_mask,
        stream: label(r.stream ? 'log.yes' : 'log.no'),
        prompt_tokens: r.prompt_tokens,
        completion_tokens: r.completion_tokens,
        cached_tokens: r.cached_tokens,
        cache_write_tokens: r.cache_write_tokens,
        reasoning_tokens: r.reasoning_tokens,
        line_items: lineItemsText(lineItemsOf(r.line_items), c.locale),
        // docs/SPEC.md §9: shown in dollars, 500000 units = $1.
        spend: quotaToUsd(r.total_price),
        conn_time: r.conn_time,
        duration: r.duration,
        total_time: r.total_time,
        internal_time: r.internal_time,
        status: statusText(r.status),
        err_msg: visibleError(lists, role, r.err_msg, r.trace_id),
        client_ip: r.client_ip,
        remote_ip: r.remote_ip,
      }));
      if (rows.length < BATCH) return;
      last = rows[rows.length - 1]!;
    }
  }

  const columns: XlsxColumn[] = COLUMNS.filter((col) => !col.roles || col.roles.includes(role)).map((col) => ({ header: label(col.label), key: col.key, width: col.width }));
  const filename = LOG_EXPORT_FILES[kind];
  return sendXlsx(reply, { filename, sheet: filename.replace(/\.xlsx$/, ''), columns }, batches());
}
