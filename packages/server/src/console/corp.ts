// /api/v1/corp: upstream vendors (docs/ORIGINAL-API.md §3.7). Admin manages; everyone may list the public ones.
import { ANY_ROLE } from '@fastgate/core/constants';
import { CORP_PREFIX, corpCreateSchema, corpPageSchema, corpResource, corpUpdateSchema, type Corp } from '@fastgate/core/entities/corp';
import { flag } from '@fastgate/core/resource';
import { changePublicSchema } from '@fastgate/core/schemas/common';
import type { FastifyInstance } from 'fastify';
import type { CorpRow } from '../db/schema';
import { contains, registerCrud } from '../http/crud';
import { post } from '../http/route';
import { formatTime } from '../http/time';
import { notFound } from '../http/errors';
import { inTimeRange } from './record-filters';

export async function corpRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;

  /** sort 0 or absent = after the last one (docs/ORIGINAL-API.md §3.7). */
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
      toRow: async (input) => ({ ...corpResource.encode(input), sort: input.sort || (await nextSort()) }),
    },
    update: {
      schema: corpUpdateSchema,
      toRow: async (input) => ({ ...corpResource.encode(input), sort: input.sort || (await nextSort()) }),
    },
    page: {
      schema: corpPageSchema,
      filter: (q, f) => {
        let out = contains(contains(contains(q, 'name', f.name), 'code', f.code), 'remark', f.remark);
        if (f.is_public !== undefined) out = out.where('is_public', '=', flag.encode(f.is_public));
        if (f.status) out = out.where('status', '=', f.status);
        return inTimeRange(app.ctx, out, 'updated_at', f.updated_at);
      },
      order: [['status', 'asc'], ['updated_at', 'desc']],
    },
    toWire: (row: CorpRow): Corp => ({
      id: row.id,
      ...corpResource.decode(row),
      sort: row.sort,
      created_at: formatTime(row.created_at, config.timeZone),
      updated_at: formatTime(row.updated_at, config.timeZone),
    }),
    // Pickers: enabled corps by sort; users and resellers only see public ones.
    list: async (q, caller) => {
      let out = q.select(['id', 'name', 'code']).where('status', '=', 1);
      if (caller.session.role !== 'admin') out = out.where('is_public', '=', flag.encode(true));
      return out.orderBy('sort', 'asc').execute();
    },
  });

  post(app, `${CORP_PREFIX}/change/public`, { schema: changePublicSchema, roles: ['admin'] }, async (input) => {
    const res = await db.updateTable('corps').set({ is_public: flag.encode(input.is_public), updated_at: Date.now() }).where('id', '=', input.id).executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw notFound();
    app.ctx.bus.publish({ entity: 'corps', op: 'update', ids: [input.id] });
  });
}
