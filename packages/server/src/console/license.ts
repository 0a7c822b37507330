// /api/v1/license (admin): licenses this console issues, each signed on save (license/keys.ts); and
// /api/v1/sys/license/install + /info: the license this installation runs under (license/state.ts).
import { ErrorCode } from '@fastgate/core/constants';
import { LICENSE_INFO_PATH, LICENSE_INSTALL_PATH, LICENSE_PREFIX, licenseCreateSchema, licenseInstallSchema, licensePageSchema, licenseResource, licenseUpdateSchema, type License, type LicenseCreate, type LicenseInfo } from '@fastgate/core/entities/license';
import type { FastifyInstance } from 'fastify';
import { flag } from '@fastgate/core/resource';
import type { LicenseRow } from '../db/schema';
import { callerOf, contains, registerCrud, resource, type ResourceSpec } from '../http/crud';
import { AppError } from '../http/errors';
import { newId } from '../http/ids';
import { get, post } from '../http/route';
import { formatTime, parseWireTime } from '../http/time';
import { signLicense, verifyLicense, type LicensePayload } from '../license/keys';
import { INSTALL_ID, installedLicense } from '../license/state';

export async function licenseRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const tz = ctx.config.timeZone;

  const payloadOf = (id: string, input: LicenseCreate, issuedAt: number): LicensePayload => ({
    id,
    name: input.name,
    email: input.email,
    phone: input.phone,
    type: input.type,
    node: input.node,
    user_count: input.user_count,
    app_count: input.app_count,
    expires_at: input.expires_at ? (parseWireTime(input.expires_at, tz) ?? 0) : 0,
    is_node_visible: input.is_node_visible,
    remark: input.remark,
    nodes: input.nodes,
    issued_at: issuedAt,
  });

  /** Row values of a license, signed now. */
  const signed = (id: string, input: LicenseCreate) => {
    const payload = payloadOf(id, input, Date.now());
    const { sign, secret_key } = signLicense(ctx.config, payload);
    return { ...licenseResource.encode(input), expires_at: payload.expires_at || null, sign, secret_key };
  };

  const spec: ResourceSpec<'licenses', License, typeof licensePageSchema> = {
    table: 'licenses',
    page: {
      schema: licensePageSchema,
      filter: (q, f) => {
        let out = contains(contains(q, 'name', f.name), 'email', f.email);
        if (f.type) out = out.where('type', '=', f.type);
        if (f.is_node_visible !== undefined) out = out.where('is_node_visible', '=', flag.encode(f.is_node_visible));
        if (f.status) out = out.where('status', '=', f.status);
        return out;
      },
      order: [['status', 'asc'], ['updated_at', 'desc']],
    },
    toWire: (row: LicenseRow): License => ({
      id: row.id,
      ...licenseResource.decode(row),
      expires_at: formatTime(row.expires_at, tz),
      sign: row.sign,
      secret_key: row.secret_key,
      created_at: formatTime(row.created_at, tz),
      updated_at: formatTime(row.updated_at, tz),
    }),
  };

  // create/update are routed here: the signed payload carries the record's id, known before the insert.
  registerCrud(app, { ...spec, prefix: LICENSE_PREFIX, roles: {} });
  const res = resource(ctx, spec);

  post(app, `${LICENSE_PREFIX}/create`, { schema: licenseCreateSchema, roles: ['admin'] }, async (input) => {
    const id = newId();
    const now = Date.now();
    await ctx.db.insertInto('licenses').values({ id, ...signed(id, input), created_at: now, updated_at: now }).execute();
    res.publish('create', [id]);
    return { id };
  });

  post(app, `${LICENSE_PREFIX}/update`, { schema: licenseUpdateSchema, roles: ['admin'] }, async ({ id, ...input }, request) => {
    const [existing] = await res.visible(callerOf(request), [id]);
    await ctx.db.updateTable('licenses').set({ ...signed(existing!.id, input), updated_at: Date.now() }).where('id', '=', existing!.id).execute();
    res.publish('update', [existing!.id]);
  });

  post(app, LICENSE_INSTALL_PATH, { schema: licenseInstallSchema, roles: ['admin'] }, async (input) => {
    const decoded = verifyLicense(ctx.config, input.secret_key);
    if (!decoded.ok) throw decoded.reason === 'incomplete' ? new AppError(ErrorCode.Validation, 'license.incomplete') : new AppError(ErrorCode.Business, 'license.invalid');
    const secret = input.secret_key.replace(/\s+/g, '');
    const now = Date.now();
    await ctx.db.deleteFrom('license_install').where('id', '=', INSTALL_ID).execute();
    await ctx.db.insertInto('license_install').values({ id: INSTALL_ID, secret_key: secret, installed_at: now }).execute();
    ctx.bus.publish({ entity: 'license_install', op: 'update', ids: [INSTALL_ID] });
    return { id: decoded.payload.id };
  });

  get(app, LICENSE_INFO_PATH, { roles: ['admin'] }, async (): Promise<LicenseInfo> => {
    const lic = await installedLicense(ctx);
    const p = lic.payload;
    return {
      state: lic.state,
      license: p
        ? {
            id: p.id,
            name: p.name,
            email: p.email,
            phone: p.phone,
            type: p.type,
            node: p.node,
            user_count: p.user_count,
            app_count: p.app_count,
            expires_at: formatTime(p.expires_at, tz),
            is_node_visible: p.is_node_visible,
            remark: p.remark,
            // Node details only when the license says they may be shown.
            nodes: p.is_node_visible ? p.nodes : [],
          }
        : null,
      installed_at: formatTime(lic.installed_at, tz),
      usage: lic.usage,
      exceeded: lic.exceeded,
      self_issued: !ctx.config.licensePublicKey,
    };
  });
}
