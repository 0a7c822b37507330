// /api/v1/corp: upstream vendors (reference §3.7). Admin manages; everyone may list the public ones.
import { ANY_ROLE } from '@fastgate/core/constants';
import { CORP_PREFIX, corpCreateSchema, corpPageSchema, corpUpdateSchema, type Corp } from '@fastgate/core/entities/corp';
import { changePublicSchema } from '@fastgate/core/schemas/common';
import type { FastifyInstance } from 'fastify';
import type { CorpRow } from '../db/schema';
import { contains, registerCrud } from '../http/crud';
import { post } from '../http/route';
import { formatTime, parseWireTime } from '../http/time';
import { notFound } from '../http/errors';

export async function corpRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;

  /** sort 0 or absent = after the last one (reference §3.7). */
  const nextSort = async () => {
    const row = await db.selectFrom('corps').select((eb) => eb.fn.max('sort').as('max')).executeTakeFirst();
    return Number(row?.max ?? 0) + 1;
  };

  registerCrud(app, {
    prefix: CORP_PREFIX,
    table: 'corps',
    roles: { list: [ANY_ROLE] },
    create: {
      schema: corpCreateSchema,
      toRow: async (input) => ({ ...input, sort: input.sort || (await nextSort()), is_public: input.is_public ? 1 : 0 }),
    },
    update: {
      schema: corpUpdateSchema,
      toRow: async ({ id: _id, ...input }) => ({ ...input, sort: input.sort || (await nextSort()), is_public: input.is_public ? 1 : 0 }),
    },
    page: {
      schema: corpPageSchema,
      filter: (q, f) => {
        let out = contains(contains(contains(q, 'name', f.name), 'code', f.code), 'remark', f.remark);
        if (f.is_public !== undefined) out = out.where('is_public', '=', f.is_public ? 1 : 0);
        if (f.status) out = out.where('status', '=', f.status);
        if (f.updated_at) {
          const [from, to] = f.updated_at.map((d, i) => parseWireTime(d, config.timeZone, i === 1));
          if (from !== undefined) out = out.where('updated_at', '>=', from);
          if (to !== undefined) out = out.where('updated_at', '<=', to);
        }
        return out;
      },
      order: [['status', 'asc'], ['updated_at', 'desc']],
    },
    toWire: (row: CorpRow): Corp => ({
      id: row.id,
      name: row.name,
      code: row.code,
      sort: row.sort,
      is_public: row.is_public === 1,
      remark: row.remark,
      status: row.status,
      created_at: formatTime(row.created_at, config.timeZone),
      updated_at: formatTime(row.updated_at, config.timeZone),
    }),
    // Pickers: enabled corps by sort; users and resellers only see public ones.
    list: async (q, caller) => {
      let out = q.select(['id', 'name', 'code']).where('status', '=', 1);
      if (caller.session.role !== 'admin') out = out.where('is_public', '=', 1);
      return out.orderBy('sort', 'asc').execute();
    },
  });

  post(app, `${CORP_PREFIX}/change/public`, { schema: changePublicSchema, roles: ['admin'] }, async (input) => {
    const res = await db.updateTable('corps').set({ is_public: input.is_public ? 1 : 0, updated_at: Date.now() }).where('id', '=', input.id).executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw notFound();
    app.ctx.bus.publish({ entity: 'corps', op: 'update', ids: [input.id] });
  });
}
