// /api/v1/key, corp era (docs/ORIGINAL-API.md §1.3, §3.3, §3.4): app keys (type 1) and model keys (type 2) share
// these paths. create, update and list are admin-only model-key verbs; the rest serve every role, with
// type 2 admin-only (HTTP 401, like the role guard) and type 1 limited to the caller's scope.
import { ANY_ROLE, Status } from '@fastgate/core/constants';
import {
  KEY_PREFIX,
  KeyType,
  keyBatchSchema,
  keyCopySchema,
  keyDeleteSchema,
  keyIdSchema,
  keyPageSchema,
  keyStatusSchema,
  modelKeyCreateSchema,
  modelKeyUpdateSchema,
  type KeyTypeValue,
} from '@fastgate/core/entities/provider-key';
import { statusField } from '@fastgate/core/schemas/common';
import type { FastifyInstance } from 'fastify';
import { callerOf, type Caller } from '../http/crud';
import { invalidField, unauthorized } from '../http/errors';
import { get, post } from '../http/route';
import { requireStepUp } from '../auth/step-up';
import { appKeyRows } from './app-keys';
import { createModelKeys, modelKeyResource, updateModelKey } from './provider-keys';

const anyone = [ANY_ROLE] as const;
// Explicit: a route without roles is open to every signed-in role (http/session.ts).
const adminOnly = ['admin'] as const;

export async function keyRoutes(app: FastifyInstance) {
  const ctx = app.ctx;
  const appKeys = appKeyRows(ctx);
  const modelKeys = modelKeyResource(ctx);
  const of = (type: KeyTypeValue) => (type === KeyType.Model ? modelKeys : appKeys);

  /**
   * The table a call addresses. Without `type` (the original's detail took only an id) a non-admin
   * means its app keys, and an admin whichever table holds the ids.
   */
  async function typeFor(c: Caller, given: KeyTypeValue | undefined, ids: string[] = []): Promise<KeyTypeValue> {
    let type = given;
    if (type === undefined) {
      if (c.session.role !== 'admin') type = KeyType.App;
      else if (!ids.length) type = KeyType.Model;
      else type = (await ctx.db.selectFrom('provider_keys').select('id').where('id', 'in', ids).executeTakeFirst()) ? KeyType.Model : KeyType.App;
    }
    if (type === KeyType.Model && c.session.role !== 'admin') throw unauthorized();
    return type;
  }

  post(app, `${KEY_PREFIX}/create`, { schema: modelKeyCreateSchema, roles: adminOnly }, async (input) => {
    const ids = await createModelKeys(ctx, input);
    return { id: ids[0], ids };
  });

  post(app, `${KEY_PREFIX}/update`, { schema: modelKeyUpdateSchema, roles: adminOnly }, (input, request) => updateModelKey(callerOf(request), modelKeys, input));

  // Picker data: model keys, masked.
  get(app, `${KEY_PREFIX}/list`, { roles: adminOnly }, async () => ({
    items: await ctx.db.selectFrom('provider_keys').select(['id', 'corp', 'key_mask as key', 'status']).orderBy('status').orderBy('updated_at', 'desc').execute(),
  }));

  post(app, `${KEY_PREFIX}/page`, { schema: keyPageSchema, roles: anyone }, async (input, request) => {
    const c = callerOf(request);
    return of(await typeFor(c, input.type)).page(c, input);
  });

  get(app, `${KEY_PREFIX}/detail`, { schema: keyIdSchema, roles: anyone }, async (input, request) => {
    const c = callerOf(request);
    const type = await typeFor(c, input.type, [input.id]);
    // An app key's detail carries the full key (docs/ORIGINAL-API.md §1.3): for an admin or reseller, a reveal.
    if (type === KeyType.App) c.audit?.reveal();
    return of(type).detail(c, input.id);
  });

  // The copy button's reveal: the full key of one record the caller may see (like /log/chat/copy/field).
  // A provider key needs a fresh second factor first (auth/step-up.ts).
  post(app, `${KEY_PREFIX}/copy/field`, { schema: keyCopySchema, roles: anyone }, async (input, request) => {
    const c = callerOf(request);
    const type = await typeFor(c, input.type, [input.id]);
    if (type === KeyType.Model) await requireStepUp(request);
    const [row] = await of(type).visible(c, [input.id]);
    return { value: ctx.secrets.decrypt(row!.key_cipher) };
  });

  post(app, `${KEY_PREFIX}/delete`, { schema: keyDeleteSchema, roles: anyone }, async (input, request) => {
    const c = callerOf(request);
    const ids = input.ids?.length ? input.ids : [input.id!];
    return of(await typeFor(c, input.type, ids)).remove(c, ids);
  });

  post(app, `${KEY_PREFIX}/change/status`, { schema: keyStatusSchema, roles: anyone }, async (input, request) => {
    const c = callerOf(request);
    return of(await typeFor(c, input.type, [input.id])).setStatus(c, [input.id], input.status);
  });

  // Actions of docs/ORIGINAL-API.md §2.8: status, delete (ids) and all-status, all-delete (every key matching the
  // filter fields of the same body).
  post(app, `${KEY_PREFIX}/batch/operate`, { schema: keyBatchSchema, roles: anyone }, async (input, request) => {
    const c = callerOf(request);
    const { action, ids, value, ...filter } = input;
    const status = () => {
      const s = statusField.safeParse(value);
      if (!s.success) throw invalidField('value', `${Status.Normal} | ${Status.Disabled}`);
      return s.data;
    };
    const needIds = () => {
      if (!ids.length) throw invalidField('ids', 'empty');
      return ids;
    };
    switch (action) {
      case 'status':
        return of(await typeFor(c, input.type, needIds())).setStatus(c, ids, status());
      case 'delete':
        return of(await typeFor(c, input.type, needIds())).remove(c, ids);
      case 'all-status': {
        const value = status();
        return of(await typeFor(c, input.type)).updateMatching(c, filter, { status: value });
      }
      case 'all-delete':
        return of(await typeFor(c, input.type)).removeMatching(c, filter);
      default:
        throw invalidField('action', action);
    }
  });
}
