// The audit log (issue 11): who (account, role), when, from where (request.ip), what (the route), which
// records and their fields before and after, secrets masked (security/redact.ts), for every console
// write, reveal and export of an admin or a reseller, and for their sign-ins.
//
// Hooked into the shared route layer so no module has to remember it: http/route.ts opens a draft for
// every admin/reseller request, the CRUD helper and `resource()` note the table, ids and rows they
// touch (the rows as they were before the write), and after the handler succeeded the route layer
// completes the row: "after" is what the handler gave, or the same rows read again by id, or, when no
// rows were noted, the masked input.
//
// Written after success rather than inside the write's transaction: the writes run in many different
// transactions (money moves, key syncs, deletes that clean up links), and threading one through 30
// modules is what the hook avoids. So a failed write never leaves an audit row, and a succeeded one is
// never turned into an error for its user: a failed audit insert is logged at error level (with the
// action, actor and record ids, never the values) for the operator to see.
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Ctx } from '../context';
import { newId } from '../http/ids';
import { redact } from '../security/redact';

type AuditKind = 'write' | 'reveal' | 'export' | 'sign_in' | 'sign_out' | 'sign_in_failed';
/** What a route records: a kind, or false for a POST that only reads. */
export type AuditFlag = false | 'write' | 'reveal' | 'export';

/** Roles whose console calls are recorded. */
const AUDITED_ROLES = new Set(['admin', 'reseller']);

/**
 * POSTs that only read, by their last path segment: the console API's read verbs (docs/ORIGINAL-API.md §1.2) and
 * the live rates (`/dashboard/per/second|minute`). Kept narrow on purpose (`/user/update/info` writes):
 * any other POST that only reads says `audit: false`.
 */
const READ_VERB = /\/(page|list|detail|menu|second|minute)$/;

/** A route's default: GETs read; a POST writes unless its verb reads; exports and reveals are their own kinds. */
export function defaultAuditFlag(method: 'GET' | 'POST', url: string): AuditFlag {
  if (method === 'GET') return false;
  if (url.endsWith('/export')) return 'export';
  if (/\/(copy\/field|reveal)$/.test(url)) return 'reveal';
  return READ_VERB.test(url) ? false : 'write';
}

/** A JSON value larger than this (a batch of a thousand rows) is stored as a note of its size. */
const AUDIT_MAX_JSON = 200_000;

type Row = Record<string, unknown> & { id: string };

/** What one request did, filled while it runs (http/crud.ts, handlers) and written once it succeeded. */
export class AuditDraft {
  table = '';
  readonly before = new Map<string, Row>();
  /** Ids of rows the request created (no "before"), or named by `result`. */
  readonly created: string[] = [];
  after: { value: unknown } | undefined;
  beforeValue: { value: unknown } | undefined;

  constructor(public kind: AuditFlag) {}

  /** Rows of `table` the request is about to change (or reveal), as they are now; the first table noted wins. */
  rows(table: string, rows: readonly Row[]): void {
    if (this.table && this.table !== table) return;
    this.table = table;
    for (const r of rows) if (!this.before.has(r.id)) this.before.set(r.id, r);
  }

  /** A row the request created. */
  create(table: string, row: Row): void {
    if (this.table && this.table !== table) return;
    this.table = table;
    this.created.push(row.id);
    this.after = { value: row };
  }

  /** The state after the write, when the handler knows it better than a re-read by id. */
  result(after: unknown, before?: unknown): void {
    this.after = { value: after };
    if (before !== undefined) this.beforeValue = { value: before };
  }

  /** A write whose record is not an id row (a sys-config section): its table, key, and both states. */
  record(table: string, id: string, before: unknown, after: unknown): void {
    this.table = table;
    this.created.push(id);
    this.result(after, before ?? null);
  }

  /** This call showed a secret (a GET detail that carries one). */
  reveal(): void {
    this.kind = 'reveal';
  }
}

const drafts = new WeakMap<FastifyRequest, AuditDraft>();

/** Opens the draft of a signed-in admin's or reseller's call (other callers are not recorded). */
export function beginAudit(request: FastifyRequest, flag: AuditFlag): AuditDraft | undefined {
  const role = request.session?.role;
  if (!role || !AUDITED_ROLES.has(role)) return undefined;
  const draft = new AuditDraft(flag);
  drafts.set(request, draft);
  return draft;
}

/** The request's draft, if it is recorded (for handlers that add a table, rows or a result). */
export function auditDraftOf(request: FastifyRequest): AuditDraft | undefined {
  return drafts.get(request);
}

export interface AuditEntry {
  kind: AuditKind;
  actor: { user_id: number; account: string; role: string };
  ip: string;
  /** The route (`/api/v1/model/agent/update`) or a sign-in step. */
  action: string;
  table?: string;
  record_ids?: string[];
  before?: unknown;
  after?: unknown;
  input?: unknown;
  /** Fields that differ between before and after (computed from the unmasked values). */
  changed?: string[];
}

/** Masked JSON text, or null; an oversized value becomes a note of its size. */
function stored(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = JSON.stringify(redact(value));
  return text.length > AUDIT_MAX_JSON ? JSON.stringify({ _omitted: 'too large', length: text.length }) : text;
}

/** Writes one audit row; never throws (see the file comment). */
export async function recordAudit(ctx: Ctx, entry: AuditEntry): Promise<void> {
  try {
    await ctx.db
      .insertInto('audit_logs')
      .values({
        id: newId(),
        created_at: Date.now(),
        kind: entry.kind,
        user_id: entry.actor.user_id,
        account: entry.actor.account.slice(0, 100),
        role: entry.actor.role.slice(0, 16),
        ip: entry.ip.slice(0, 64),
        action: entry.action.slice(0, 200),
        table_name: entry.table ?? '',
        record_ids: JSON.stringify((entry.record_ids ?? []).slice(0, 1000)),
        changed: JSON.stringify(entry.changed ?? []),
        before: stored(entry.before),
        after: stored(entry.after),
        input: stored(entry.input),
      })
      .execute();
  } catch (err) {
    ctx.log.error({ err, audit: { kind: entry.kind, action: entry.action, user_id: entry.actor.user_id, table: entry.table, record_ids: entry.record_ids?.slice(0, 20) } }, 'AUDIT LOG WRITE FAILED: a console action succeeded without its audit row');
  }
}

/** Fields whose values differ between two rows (timestamps of the write itself left out). */
function changedFields(before: Row, after: Row | undefined, into: Set<string>): void {
  const keys = new Set([...Object.keys(before), ...Object.keys(after ?? {})]);
  for (const k of keys) if (k !== 'updated_at' && JSON.stringify(before[k]) !== JSON.stringify(after?.[k])) into.add(k);
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** One row as itself, several keyed by id (so the screen's diff pairs them). */
const shape = (ids: string[], rows: Map<string, Row>) => (ids.length === 1 ? (rows.get(ids[0]!) ?? null) : Object.fromEntries(ids.filter((id) => rows.has(id)).map((id) => [id, rows.get(id)])));

/** Completes and writes the draft of a call that succeeded (http/route.ts). */
export async function finishAudit(request: FastifyRequest, draft: AuditDraft, input: unknown): Promise<void> {
  if (!draft.kind) return;
  const { ctx } = request.server;
  const session = request.session!;
  const ids = [...draft.before.keys(), ...draft.created];
  const entry: AuditEntry = {
    kind: draft.kind,
    actor: { user_id: session.user.user_id, account: session.user.account, role: session.role },
    ip: request.ip,
    action: request.routeOptions.url ?? request.url,
    table: draft.table,
    record_ids: ids,
    input,
  };
  if (draft.kind === 'write') {
    try {
      Object.assign(entry, await beforeAndAfter(ctx, draft, ids, input));
    } catch (err) {
      ctx.log.error({ err, action: entry.action }, 'AUDIT LOG: reading the rows after a write failed; recorded without them');
    }
  }
  await recordAudit(ctx, entry);
}

async function beforeAndAfter(ctx: Ctx, draft: AuditDraft, ids: string[], input: unknown): Promise<Pick<AuditEntry, 'before' | 'after' | 'changed'>> {
  if (draft.beforeValue || (!draft.table && draft.after)) {
    const [before, after] = [draft.beforeValue?.value, draft.after?.value];
    const changed = new Set<string>();
    if (isRecord(before) && isRecord(after)) changedFields(before as Row, after as Row, changed);
    return { before, after, changed: [...changed] };
  }
  // Nothing noted: the masked input says what was asked.
  if (!draft.table) return { after: input };
  if (draft.created.length && !draft.before.size) return { after: draft.after?.value };
  let after: Map<string, Row>;
  if (draft.after && ids.length === 1) after = new Map([[ids[0]!, draft.after.value as Row]]);
  else {
    const rows = ids.length ? ((await (ctx.db as unknown as Kysely<any>).selectFrom(draft.table).selectAll().where('id', 'in', ids).execute()) as Row[]) : [];
    after = new Map(rows.map((r) => [r.id, r]));
  }
  const changed = new Set<string>();
  // A deleted row has no "after": the whole row is what changed, and the empty side says so.
  for (const [id, row] of draft.before) if (after.has(id)) changedFields(row, after.get(id), changed);
  return { before: shape(ids, draft.before), after: after.size ? shape(ids, after) : null, changed: [...changed] };
}
