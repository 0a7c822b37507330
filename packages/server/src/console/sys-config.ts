// /api/v1/sys/config: the system config (docs/ORIGINAL-API.md §1.9, §3.10), admin only. One section per write;
// every write publishes a sys_configs change so the gateway snapshot and the login pages follow at
// once. The email password is stored encrypted and answered as '' with `password_set`; an update with
// an empty password keeps the stored one.
import {
  SYS_CONFIG_DEFAULTS,
  SYS_CONFIG_SECTIONS,
  SWITCHABLE_SECTIONS,
  sysConfigRefreshSchema,
  sysConfigStatusSchema,
  sysSectionSchemas,
  type SysConfig,
  type SysConfigSection,
  type SysConfigWire,
} from '@fastgate/core/sys-config';
import { ErrorCode } from '@fastgate/core/constants';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { auditDraftOf } from '../audit/record';
import { AppError } from '../http/errors';
import { requestLocale } from '../http/locale';
import { get, post } from '../http/route';
import { parse } from '../http/validate';
import { getSysSection } from '../settings/sys-config';

const ADMIN = ['admin'] as const;
/** Tables the gateway snapshot holds (gateway/snapshot.ts): `refresh_api_cache` reloads them all. */
const SNAPSHOT_TABLES = ['users', 'apps', 'app_keys', 'groups', 'models', 'model_agents', 'provider_keys', 'corps', 'sys_configs'] as const;

const updateSchema = z.object({ action: z.string().trim().min(1).max(64) }).loose();

export async function sysConfigRoutes(app: FastifyInstance) {
  const { db, secrets, bus } = app.ctx;

  const unknownSection = (action: string) => new AppError(ErrorCode.Validation, 'sys.unknown_section', { action });
  const sectionOf = (action: string): SysConfigSection => {
    if (!(SYS_CONFIG_SECTIONS as string[]).includes(action)) throw unknownSection(action);
    return action as SysConfigSection;
  };

  /** Writes a whole section (already merged and validated), tells the listeners, and gives the audit log both states. */
  const write = async (request: FastifyRequest, section: SysConfigSection, value: object) => {
    auditDraftOf(request)?.record('sys_configs', section, await getSysSection(db, section), value);
    const now = Date.now();
    const text = JSON.stringify(value);
    await db
      .insertInto('sys_configs')
      .values({ section, value: text, updated_at: now })
      .onConflict((oc) => oc.column('section').doUpdateSet({ value: text, updated_at: now }))
      .execute();
    bus.publish({ entity: 'sys_configs', op: 'update', ids: [section] });
  };

  const wire = async (): Promise<SysConfigWire> => {
    const out = {} as Record<string, unknown>;
    for (const s of SYS_CONFIG_SECTIONS) out[s] = await getSysSection(db, s);
    const email = out.email as SysConfig['email'];
    out.email = { ...email, password: '', password_set: !!email.password };
    return out as SysConfigWire;
  };

  get(app, '/sys/config/detail', { roles: ADMIN }, wire);

  post(app, '/sys/config/update', { schema: updateSchema, roles: ADMIN }, async (input, request) => {
    const section = sectionOf(input.action);
    const raw = (input as Record<string, unknown>)[section];
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new AppError(ErrorCode.Validation, 'common.invalid_field', { field: section, detail: 'object' });
    // Field errors name the full path (`admin_login.session_expire`), like the console's forms.
    const partial = parse(z.object({ [section]: (sysSectionSchemas[section] as z.ZodObject).partial() }), { [section]: raw }, requestLocale(request))[section] as Record<string, unknown>;
    const stored = (await getSysSection(db, section)) as unknown as Record<string, unknown>;
    const next = { ...stored, ...partial };
    if (section === 'email') {
      const password = partial.password as string | undefined;
      next.password = password ? secrets.encrypt(password) : stored.password;
    }
    await write(request, section, next);
  });

  post(app, '/sys/config/change/status', { schema: sysConfigStatusSchema, roles: ADMIN }, async (input, request) => {
    if (!SWITCHABLE_SECTIONS.includes(input.action)) throw new AppError(ErrorCode.Validation, 'sys.no_switch', { action: input.action });
    await write(request, input.action, { ...(await getSysSection(db, input.action)), open: input.open });
  });

  post(app, '/sys/config/reset', { schema: updateSchema, roles: ADMIN }, async (input, request) => {
    const section = sectionOf(input.action);
    await write(request, section, SYS_CONFIG_DEFAULTS[section]);
  });

  post(app, '/sys/config/refresh', { schema: sysConfigRefreshSchema, roles: ADMIN }, () => {
    for (const entity of SNAPSHOT_TABLES) bus.publish({ entity, op: 'update', ids: [] });
  });
}
