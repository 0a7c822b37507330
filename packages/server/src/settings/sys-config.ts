// System config storage: one row per section, merged over the defaults in core.
import { SYS_CONFIG_DEFAULTS, type SysConfig, type SysConfigSection } from '@fastgate/core/sys-config';
import type { DB } from '../db/schema';

export async function getSysSection<S extends SysConfigSection>(db: DB, section: S): Promise<SysConfig[S]> {
  const row = await db.selectFrom('sys_configs').select('value').where('section', '=', section).executeTakeFirst();
  const stored = row ? (JSON.parse(row.value) as Partial<SysConfig[S]>) : {};
  return { ...SYS_CONFIG_DEFAULTS[section], ...stored };
}

export async function setSysSection<S extends SysConfigSection>(db: DB, section: S, value: Partial<SysConfig[S]>): Promise<void> {
  const merged = { ...(await getSysSection(db, section)), ...value };
  const now = Date.now();
  await db
    .insertInto('sys_configs')
    .values({ section, value: JSON.stringify(merged), updated_at: now })
    .onConflict((oc) => oc.column('section').doUpdateSet({ value: JSON.stringify(merged), updated_at: now }))
    .execute();
}

/** Login options of a channel's login screen. */
export function loginSection(channel: 'user' | 'reseller' | 'admin'): 'user_login_register' | 'reseller_login_register' | 'admin_login' {
  return channel === 'admin' ? 'admin_login' : channel === 'reseller' ? 'reseller_login_register' : 'user_login_register';
}
