// The CRUD helper: one declaration gives a resource the uniform verbs of docs/ORIGINAL-API.md §1.2 — create,
// update, delete, detail, page, list, change/status, batch/operate — with role checks, the caller's
// data scope on every verb, validation from core schemas, and a change event on every write.
import type { RoleOrAny } from '@fastgate/core/constants';
import { batchSchema, changeStatusSchema, idField, idSchema, type BatchInput } from '@fastgate/core/schemas/common';
import type { Locale } from '@fastgate/core/constants';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Insertable, type Kysely, type SelectQueryBuilder, type Selectable, type StringReference, type Updateable } from 'kysely';
import { z } from 'zod';
import { auditDraftOf, type AuditDraft } from '../audit/record';
import type { Session } from '../auth/sessions';
import type { ChangeEvent } from '../bus/index';
import type { Ctx } from '../context';
import type { Database } from '../db/schema';
import { AppError, notFound } from './errors';
import { newId } from './ids';
import { requestLocale } from './locale';
import { paged } from './paging';
import { get, post } from './route';
import { sessionOf } from './session';
import { ErrorCode } from '@fastgate/core/constants';

type Verb = 'create' | 'update' | 'delete' | 'detail' | 'page' | 'list' | 'status' | 'batch';

/** Who is calling, for scopes and row builders. */
export interface Caller {
  ctx: Ctx;
  session: Session;
  locale: Locale;
  /** The audit log's draft of this call (admins and resellers): the verbs note the rows they touch. */
  audit?: AuditDraft;
}

/** A console table: one with the record columns every verb relies on. */
export type CrudTable = { [T in keyof Database]: Database[T] extends { id: string; updated_at: number } ? T : never }[keyof Database];
/** A select over table `T` before it picks columns: filters and scopes are checked against `T`'s columns. */
export type TableQuery<T extends CrudTable> = SelectQueryBuilder<Database, T, object>;
/** A row of `T` (its `id` spelt out: kysely's row type of a type parameter does not show it). */
export type RowOf<T extends CrudTable> = Selectable<Database[T]> & { id: string };
/** Row values a create writes (the helper adds id and times) and an update sets. */
type CreateValues<T extends CrudTable> = Omit<Insertable<Database[T]>, 'id' | 'created_at' | 'updated_at'>;
type UpdateValues<T extends CrudTable> = Updateable<Database[T]>;
type Values = Record<string, unknown>;
/** A page schema's filters without the paging keys. */
type PageFilter<F extends z.ZodType> = Omit<z.infer<F>, 'current' | 'pageSize'>;
/** The untyped form the helper's own code runs on: the table is a type parameter, which kysely cannot resolve inside. */
type AnyQuery = SelectQueryBuilder<any, any, any>;  

/** What a table needs for the read, status and delete verbs, with or without routes of its own. */
export interface ResourceSpec<T extends CrudTable, Wire, F extends z.ZodType, P = undefined> {
  table: T;
  /** Restricts every verb to the rows the caller may see (user → own, reseller → its users'); may look things up first. */
  scope?: (q: TableQuery<T>, caller: Caller) => TableQuery<T> | Promise<TableQuery<T>>;
  page: { schema: F; filter: (q: TableQuery<T>, input: z.infer<F>, caller: Caller) => TableQuery<T>; order: readonly (readonly [StringReference<Database, T>, 'asc' | 'desc'])[] };
  /** Loads what a batch of rows needs for `toWire` (e.g. names of referenced records) in one go. */
  prepare?: (rows: RowOf<T>[], caller: Caller) => Promise<P>;
  toWire: (row: RowOf<T>, caller: Caller, view: 'page' | 'detail', prepared: P) => Wire | Promise<Wire>;
  /** Runs before rows are deleted (clean up links). */
  beforeDelete?: (rows: RowOf<T>[], caller: Caller) => Promise<void>;
}

export interface CrudSpec<T extends CrudTable, Wire, C extends z.ZodType, U extends z.ZodType, F extends z.ZodType, P = undefined> extends ResourceSpec<T, Wire, F, P> {
  prefix: string;
  /** Roles per verb; a verb without an entry is admin-only. */
  roles: Partial<Record<Verb, readonly RoleOrAny[]>>;
  create?: { schema: C; toRow: (input: z.infer<C>, caller: Caller) => Promise<CreateValues<T>> | CreateValues<T>; after?: (row: RowOf<T>, input: z.infer<C>, caller: Caller) => Promise<unknown> };
  update?: { schema: U; toRow: (input: z.infer<U>, existing: RowOf<T>, caller: Caller) => Promise<UpdateValues<T>> | UpdateValues<T>; after?: (row: RowOf<T>, input: z.infer<U>, caller: Caller) => Promise<void> };
  /** Dropdown data: `GET <prefix>/list`. */
  list?: (q: TableQuery<T>, caller: Caller) => Promise<unknown[]>;
  /** Extra batch actions beside `status` and `delete`. */
  batch?: Record<string, (input: BatchInput & Values, caller: Caller) => Promise<unknown>>;
}

/**
 * The scoped operations behind the verbs. `registerCrud` routes them; modules whose routes differ
 * (one path serving two tables, like the corp era's `/key`) call them directly.
 */
export function resource<T extends CrudTable, Wire, F extends z.ZodType, P = undefined>(ctx: Ctx, spec: ResourceSpec<T, Wire, F, P>) {
  type Row = RowOf<T>;
  const db = ctx.db as unknown as Kysely<any>;  
  const table: string = spec.table;
  const scoped = async (c: Caller): Promise<TableQuery<T>> => {
    const q = db.selectFrom(table) as TableQuery<T>;
    return spec.scope ? spec.scope(q, c) : q;
  };
  const untyped = (q: TableQuery<T>) => q as unknown as AnyQuery;
  /** Resolves once this instance's gateway sees the change (bus/index.ts). */
  const publish = async (op: ChangeEvent['op'], ids: string[]): Promise<void> => {
    if (ids.length) await ctx.bus.publish({ entity: spec.table, op, ids });
  };

  /** Rows by id within the caller's scope; all must exist, or the call fails naming none of them. */
  async function visible(c: Caller, ids: string[]): Promise<Row[]> {
    const unique = [...new Set(ids)];
    const rows = (await untyped(await scoped(c)).selectAll().where('id', 'in', unique).execute()) as Row[];
    if (rows.length !== unique.length) throw notFound();
    // The rows as they are before the call changes (or reveals) them.
    c.audit?.rows(spec.table, rows);
    return rows;
  }

  async function removeRows(c: Caller, rows: Row[]) {
    if (!rows.length) return;
    c.audit?.rows(spec.table, rows);
    await spec.beforeDelete?.(rows, c);
    const ids = rows.map((r) => r.id);
    await db.deleteFrom(table).where('id', 'in', ids).execute();
    await publish('delete', ids);
  }

  async function updateRows(c: Caller, rows: Row[], values: Values) {
    if (!rows.length) return;
    c.audit?.rows(spec.table, rows);
    const ids = rows.map((r) => r.id);
    await db.updateTable(table).set({ ...values, updated_at: Date.now() }).where('id', 'in', ids).execute();
    await publish('update', ids);
  }

  /** Every row the caller may see that matches a page filter (the `all-*` batch actions). */
  async function matching(c: Caller, filter: PageFilter<F>): Promise<Row[]> {
    return (await untyped(spec.page.filter(await scoped(c), filter as z.infer<F>, c)).selectAll().execute()) as Row[];
  }

  async function wire(c: Caller, rows: Row[], view: 'page' | 'detail'): Promise<Wire[]> {
    const prepared = (spec.prepare ? await spec.prepare(rows, c) : undefined) as P;
    return Promise.all(rows.map((row) => spec.toWire(row, c, view, prepared)));
  }

  return {
    scoped,
    publish,
    visible,
    wire,
    removeRows,
    updateRows,
    matching,
    /** `all-status` style actions: every row in scope matching a page filter. */
    updateMatching: async (c: Caller, filter: PageFilter<F>, values: Values) => updateRows(c, await matching(c, filter), values),
    removeMatching: async (c: Caller, filter: PageFilter<F>) => removeRows(c, await matching(c, filter)),
    remove: async (c: Caller, ids: string[]) => removeRows(c, await visible(c, ids)),
    setStatus: async (c: Caller, ids: string[], status: number) => updateRows(c, await visible(c, ids), { status }),
    detail: async (c: Caller, id: string) => (await wire(c, await visible(c, [id]), 'detail'))[0]!,
    page: async (c: Caller, input: z.infer<F>) => {
      const base = untyped(spec.page.filter(await scoped(c), input, c));
      const page = await paged(input as { current: number; pageSize: number }, base, (q) => spec.page.order.reduce((acc, [col, dir]) => acc.orderBy(col, dir), q.selectAll()), (row) => row as Row);
      return { ...page, items: await wire(c, page.items, 'page') };
    },
  };
}

/** The caller of a console route (the session hook has run). */
export const callerOf = (request: FastifyRequest): Caller => ({ ctx: request.server.ctx, session: sessionOf(request), locale: requestLocale(request), audit: auditDraftOf(request) });

export const deleteSchema = z.object({ id: idField.optional(), ids: z.array(idField).max(1000).optional() }).refine((v) => v.id || v.ids?.length, { message: 'id', path: ['id'] });

export function registerCrud<T extends CrudTable, Wire, C extends z.ZodType, U extends z.ZodType, F extends z.ZodType, P = undefined>(
  app: FastifyInstance,
  spec: CrudSpec<T, Wire, C, U, F, P>,
): void {
  type Row = RowOf<T>;
  const ctx = app.ctx;
  const db = ctx.db as unknown as Kysely<any>;  
  const table: string = spec.table;
  const roles = (verb: Verb) => spec.roles[verb] ?? (['admin'] as const);
  const res = resource(ctx, spec);

  if (spec.create) {
    const create = spec.create;
    post(app, `${spec.prefix}/create`, { schema: create.schema, roles: roles('create') }, async (input, request) => {
      const c = callerOf(request);
      const now = Date.now();
      const id = newId();
      const row = (await db.insertInto(table).values({ id, ...(await create.toRow(input, c)), created_at: now, updated_at: now }).returningAll().executeTakeFirstOrThrow()) as Row;
      c.audit?.create(spec.table, row);
      await res.publish('create', [id]);
      const extra = await create.after?.(row, input, c);
      return { id, ...(extra && typeof extra === 'object' ? extra : {}) };
    });
  }

  if (spec.update) {
    const update = spec.update;
    post(app, `${spec.prefix}/update`, { schema: update.schema, roles: roles('update') }, async (input, request) => {
      const c = callerOf(request);
      const [existing] = await res.visible(c, [(input as { id: string }).id]);
      const values = await update.toRow(input, existing!, c);
      const row = (await db.updateTable(table).set({ ...values, updated_at: Date.now() }).where('id', '=', existing!.id).returningAll().executeTakeFirstOrThrow()) as Row;
      c.audit?.result(row);
      await res.publish('update', [existing!.id]);
      await update.after?.(row, input, c);
    });
  }

  post(app, `${spec.prefix}/delete`, { schema: deleteSchema, roles: roles('delete') }, (input, request) =>
    res.remove(callerOf(request), input.ids?.length ? input.ids : [input.id!]),
  );

  get(app, `${spec.prefix}/detail`, { schema: idSchema, roles: roles('detail') }, (input, request) => res.detail(callerOf(request), input.id));

  post(app, `${spec.prefix}/page`, { schema: spec.page.schema, roles: roles('page') }, (input, request) => res.page(callerOf(request), input));

  if (spec.list) {
    const list = spec.list;
    get(app, `${spec.prefix}/list`, { roles: roles('list') }, async (_input, request) => {
      const c = callerOf(request);
      return { items: await list(await res.scoped(c), c) };
    });
  }

  post(app, `${spec.prefix}/change/status`, { schema: changeStatusSchema, roles: roles('status') }, (input, request) =>
    res.setStatus(callerOf(request), [input.id], input.status),
  );

  post(app, `${spec.prefix}/batch/operate`, { schema: batchSchema.loose(), roles: roles('batch') }, async (input, request) => {
    const c = callerOf(request);
    const extra = spec.batch?.[input.action];
    if (extra) return extra(input as BatchInput & Values, c);
    if (input.action === 'delete' || input.action === 'status') {
      if (!input.ids.length) throw new AppError(ErrorCode.Validation, 'common.invalid_field', { field: 'ids', detail: 'empty' });
      if (input.action === 'delete') return res.remove(c, input.ids);
      const status = changeStatusSchema.shape.status.safeParse(input.value);
      if (!status.success) throw new AppError(ErrorCode.Validation, 'common.invalid_field', { field: 'value', detail: '1 | 2' });
      return res.setStatus(c, input.ids, status.data);
    }
    throw new AppError(ErrorCode.Validation, 'common.invalid_field', { field: 'action', detail: input.action });
  });
}

/** Substring filter that is the same on SQLite and PostgreSQL (LIKE is case-insensitive only on SQLite). */
export function contains<DB, TB extends keyof DB, O>(q: SelectQueryBuilder<DB, TB, O>, column: StringReference<DB, TB>, value: string | undefined): SelectQueryBuilder<DB, TB, O> {
  if (!value) return q;
  const escaped = value.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`);
  return q.where(sql<boolean>`lower(${sql.ref(column as string)}) like ${`%${escaped}%`} escape '\\'`);
}

