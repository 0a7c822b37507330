// A new user's default app "默认应用" with one key (reference §4 Register), through the same writes the
// app screens use: `limitColumns` for the app's settings and `insertAppKeys` for its key.
import { APP_KEY_PREFIX } from '@fastgate/core/entities/app-key';
import { Status } from '@fastgate/core/constants';
import type { Ctx } from '../context';
import { newId } from '../http/ids';
import { generateAppKey } from '../security/api-keys';
import { insertAppKeys } from './app-keys';
import { limitColumns } from './usage-limits';

export const DEFAULT_APP_NAME = '默认应用';

export async function createDefaultApp(ctx: Ctx, userId: number): Promise<{ app_id: number; key: string }> {
  const now = Date.now();
  const id = newId();
  const limits = await limitColumns(ctx, userId, { models: [], is_bind_group: false, group: '', is_limit_quota: false, quota: 0, quota_expires_at: '', ip_whitelist: [], ip_blacklist: [] });
  const app = await ctx.db
    .insertInto('apps')
    .values({ id, user_id: userId, name: DEFAULT_APP_NAME, remark: '', used_quota: 0, ...limits, status: Status.Normal, created_at: now, updated_at: now } as never)
    .returning(['app_id', 'user_id'])
    .executeTakeFirstOrThrow();
  ctx.bus.publish({ entity: 'apps', op: 'create', ids: [id] });
  const key = generateAppKey(APP_KEY_PREFIX);
  await insertAppKeys(ctx, app, [key], {});
  return { app_id: app.app_id, key };
}
