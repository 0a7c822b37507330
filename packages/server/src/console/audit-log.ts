// /api/v1/sys/audit/{page, detail, export}: the audit log (audit/record.ts) for admins (every row) and
// resellers (their own rows only, whatever the filter says). Filters run on the (created_at),
// (user_id, created_at), (action, created_at) and (table_name, created_at) indexes; the export streams
// in keyset batches like the call-log export.
import { AUDIT_EXPORT_FILE, AUDIT_KINDS, AUDIT_PREFIX, auditDetailSchema, auditExportSchema, auditPageSchema, type AuditFilter, type AuditLog, type AuditLogDetail } from '@fastgate/core/entities/audit-log';
import { t, type MessageKey } from '@fastgate/core/messages';
import type { FastifyInstance } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import type { AuditLogRow, Database } from '../db/schema';
import { callerOf, contains, type Caller } from '../http/crud';
import { notFound } from '../http/errors';
import { paged } from '../http/paging';
import { get, post } from '../http/route';
import { formatTime } from '../http/time';
import { sendXlsx } from '../http/xlsx';
import { parseTimeRange } from './call-log-query';

type AuditQuery = SelectQueryBuilder<Database, 'audit_logs', object>;

const MANAGERS = ['admin', 'reseller'] as const;
const BATCH = 1000;
const LIST_COLUMNS = ['id', 'created_at', 'kind', 'user_id', 'account', 'role', 'ip', 'action', 'table_name', 'record_ids', 'changed'] as const;

/** Server-enforced scope: a reseller reads only the rows of its own actions. */
function scoped(c: Caller): AuditQuery {
  const q = c.ctx.db.selectFrom('audit_logs');
  return c.session.role === 'admin' ? q : q.where('user_id', '=', c.session.user.user_id);
}

function filtered(c: Caller, f: AuditFilter): AuditQuery {
  let q = scoped(c);
  const { from, to } = parseTimeRange(c, f.created_at, 'created_at');
  if (from !== undefined) q = q.where('created_at', '>=', from);
  if (to !== undefined) q = q.where('created_at', '<=', to);
  if (f.kind) q = q.where('kind', '=', f.kind);
  if (f.user_id && c.session.role === 'admin') q = q.where('user_id', '=', f.user_id);
  if (f.table_name) q = q.where('table_name', '=', f.table_name);
  // Ids are plain tokens (no quotes or wildcards): a textual match inside the JSON array.
  if (f.record_id) q = q.where('record_ids', 'like', `%"${f.record_id.replace(/["\\%_]/g, '')}"%`);
  q = contains(q, 'account', f.account) as AuditQuery;
  return contains(q, 'action', f.action) as AuditQuery;
}

const list = (text: string): string[] => JSON.parse(text) as string[];
/** Excel keeps at most 32,767 characters in a cell. */
const cellText = (text: string | null) => (text && text.length > 32_000 ? `${text.slice(0, 32_000)}…` : text);
const json = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

function toWire(row: Pick<AuditLogRow, (typeof LIST_COLUMNS)[number]>, tz: string): AuditLog {
  return {
    id: row.id,
    created_at: formatTime(row.created_at, tz),
    kind: row.kind as AuditLog['kind'],
    user_id: row.user_id,
    account: row.account,
    role: row.role,
    ip: row.ip,
    action: row.action,
    table_name: row.table_name,
    record_ids: list(row.record_ids),
    changed: list(row.changed),
  };
}

const COLUMNS: { key: string; label: MessageKey; width: number }[] = [
  { key: 'created_at', label: 'audit.col.created_at', width: 20 },
  { key: 'kind', label: 'audit.col.kind', width: 10 },
  { key: 'user_id', label: 'audit.col.user_id', width: 10 },
  { key: 'account', label: 'audit.col.account', width: 18 },
  { key: 'role', label: 'audit.col.role', width: 10 },
  { key: 'ip', label: 'audit.col.ip', width: 16 },
  { key: 'action', label: 'audit.col.action', width: 36 },
  { key: 'table_name', label: 'audit.col.table_name', width: 16 },
  { key: 'record_ids', label: 'audit.col.record_ids', width: 24 },
  { key: 'changed', label: 'audit.col.changed', width: 24 },
  { key: 'before', label: 'audit.col.before', width: 60 },
  { key: 'after', label: 'audit.col.after', width: 60 },
  { key: 'input', label: 'audit.col.input', width: 60 },
];

export async function auditLogRoutes(app: FastifyInstance) {
  const tz = app.ctx.config.timeZone;

  post(app, `${AUDIT_PREFIX}/page`, { schema: auditPageSchema, roles: MANAGERS }, (input, request) => {
    const c = callerOf(request);
    return paged(input, filtered(c, input), (q) => q.select(LIST_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc'), (row) => toWire(row, tz));
  });

  get(app, `${AUDIT_PREFIX}/detail`, { schema: auditDetailSchema, roles: MANAGERS }, async (input, request): Promise<AuditLogDetail> => {
    const row = await scoped(callerOf(request)).selectAll().where('id', '=', input.id).executeTakeFirst();
    if (!row) throw notFound();
    return { ...toWire(row, tz), before: json(row.before), after: json(row.after), input: json(row.input) };
  });

  // Exporting the audit log is itself recorded (the default for /export).
  post(app, `${AUDIT_PREFIX}/export`, { schema: auditExportSchema, roles: MANAGERS }, async (input, request, reply) => {
    const c = callerOf(request);
    const base = input.ids?.length ? scoped(c).where('id', 'in', input.ids) : filtered(c, input);
    const label = (key: MessageKey) => t(key, c.locale);
    const kinds = new Set<string>(AUDIT_KINDS);
    // Keyset over (created_at desc, id desc), like the call-log export.
    async function* batches() {
      let last: { created_at: number; id: string } | undefined;
      for (;;) {
        let q = base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(BATCH);
        if (last) {
          const { created_at, id } = last;
          q = q.where('created_at', '<=', created_at).where((eb) => eb.or([eb('created_at', '<', created_at), eb('id', '<', id)]));
        }
        const rows = await q.execute();
        if (!rows.length) return;
        yield rows.map((r) => ({
          ...r,
          created_at: formatTime(r.created_at, tz),
          kind: kinds.has(r.kind) ? label(`audit.kind.${r.kind as AuditLog['kind']}`) : r.kind,
          record_ids: list(r.record_ids).join(', '),
          changed: list(r.changed).join(', '),
          before: cellText(r.before),
          after: cellText(r.after),
          input: cellText(r.input),
        }));
        if (rows.length < BATCH) return;
        last = rows[rows.length - 1]!;
      }
    }
    const columns = COLUMNS.map((col) => ({ header: label(col.label), key: col.key, width: col.width }));
    return sendXlsx(reply, { filename: AUDIT_EXPORT_FILE, sheet: AUDIT_EXPORT_FILE.replace(/\.xlsx$/, ''), columns }, batches());
  });
}
