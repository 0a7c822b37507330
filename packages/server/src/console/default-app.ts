// A new user's default app "默认应用" with one key (docs/ORIGINAL-API.md §4 Register), through the same writes the
// app screens use: `appColumns` for the app's settings (all at their defaults) and `insertAppKeys` for its key.
import { appResource } from '@fastgate/core/entities/app';
import { APP_KEY_PREFIX } from '@fastgate/core/entities/app-key';
import type { Ctx } from '../context';
import { newId } from '../http/ids';
import { generateAppKey } from '../security/api-keys';
import { insertAppKeys } from './app-keys';
import { appColumns } from './app';

const DEFAULT_APP_NAME = '默认应用';

export async function createDefaultApp(ctx: Ctx, userId: number): Promise<{ app_id: number; key: string }> {
  const now = Date.now();
  const id = newId();
  const app = await ctx.db
    .insertInto('apps')
    .values({ id, user_id: userId, ...appColumns(ctx, appResource.fields.parse({ name: DEFAULT_APP_NAME })), created_at: now, updated_at: now })
    .returning(['app_id', 'user_id'])
    .executeTakeFirstOrThrow();
  ctx.bus.publish({ entity: 'apps', op: 'create', ids: [id] });
  const key = generateAppKey(APP_KEY_PREFIX);
  await insertAppKeys(ctx, app, [key], {});
  return { app_id: app.app_id, key };
}
