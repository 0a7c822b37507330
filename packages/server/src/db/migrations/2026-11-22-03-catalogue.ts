// What the gateway serves: models, model agents, provider keys, groups, apps, app keys; and the
// models/groups granted to each account. Frozen. JSON arrays and objects are stored as text; booleans
// as 0/1 integers so both databases agree.
import type { CreateTableBuilder, Kysely } from 'kysely';
import { isPostgres } from './dialect';

type T = CreateTableBuilder<any, any>;
const text = (t: T, ...names: string[]) => names.reduce((acc, n) => acc.addColumn(n, 'text', (c) => c.notNull().defaultTo('')), t);
const json = (t: T, empty: '[]' | '{}', ...names: string[]) => names.reduce((acc, n) => acc.addColumn(n, 'text', (c) => c.notNull().defaultTo(empty)), t);
const int = (t: T, ...names: string[]) => names.reduce((acc, n) => acc.addColumn(n, 'integer', (c) => c.notNull().defaultTo(0)), t);
const big = (t: T, ...names: string[]) => names.reduce((acc, n) => acc.addColumn(n, 'bigint', (c) => c.notNull().defaultTo(0)), t);
const record = (t: T) => t.addColumn('status', 'integer', (c) => c.notNull().defaultTo(1)).addColumn('created_at', 'bigint', (c) => c.notNull()).addColumn('updated_at', 'bigint', (c) => c.notNull());

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = (name: string) => db.schema.createTable(name).addColumn('id', 'varchar(32)', (c) => c.primaryKey());

  let models = id('models').addColumn('corp', 'varchar(32)', (c) => c.notNull()).addColumn('type', 'integer', (c) => c.notNull().defaultTo(1));
  models = text(models, 'name', 'model', 'base_url', 'path', 'remark');
  models = int(models, 'request_data_format', 'response_data_format', 'is_public', 'is_enable_model_agent', 'lb_strategy', 'is_enable_preset_config', 'is_enable_forward', 'is_enable_fallback');
  // quotas: {text_quota, image_quota, audio_quota, multimodal_quota, realtime_quota, multimodal_audio_quota, midjourney_quotas, ...}
  models = json(models, '{}', 'quotas', 'preset_config', 'forward_config', 'fallback_config');
  models = json(models, '[]', 'groups', 'model_agents');
  await record(models).execute();
  await db.schema.createIndex('models_model').on('models').column('model').execute();

  let agents = id('model_agents').addColumn('corp', 'varchar(32)', (c) => c.notNull()).addColumn('weight', 'integer', (c) => c.notNull().defaultTo(1));
  agents = text(agents, 'name', 'base_url', 'path', 'remark', 'auto_disabled_reason');
  agents = int(agents, 'is_enable_model_replace', 'is_never_disable', 'lb_strategy', 'is_auto_disabled');
  agents = json(agents, '[]', 'models', 'replace_models', 'target_models', 'fallback_models');
  await record(agents).execute();

  let keys = id('provider_keys').addColumn('corp', 'varchar(32)', (c) => c.notNull()).addColumn('weight', 'integer', (c) => c.notNull().defaultTo(1));
  // key_cipher: AES-GCM ciphertext; key_hash: sha256 for look-ups and duplicates; key_mask: what lists show.
  keys = text(keys, 'key_cipher', 'key_hash', 'key_mask', 'remark', 'auto_disabled_reason');
  keys = int(keys, 'is_agents_only', 'is_never_disable', 'is_limit_quota', 'is_auto_disabled');
  keys = big(keys, 'quota', 'used_quota');
  keys = json(keys, '[]', 'models', 'model_agents');
  await record(keys).execute();
  await db.schema.createIndex('provider_keys_hash').on('provider_keys').column('key_hash').execute();

  let groups = id('groups').addColumn('user_id', 'integer', (c) => c.notNull().defaultTo(0)).addColumn('expires_at', 'bigint');
  // discount_bp: discount in basis points, 10000 = 100 % (pay the full price).
  groups = int(groups, 'discount_bp', 'is_default', 'is_public', 'weight', 'is_limit_quota', 'is_enable_model_agent', 'lb_strategy', 'is_enable_forward');
  groups = big(groups, 'quota', 'used_quota');
  groups = text(groups, 'name', 'remark');
  // rate_limits: {rps, rpm, rpd, tps, tpm, tpd}; 0 or absent = unlimited.
  groups = json(groups, '{}', 'rate_limits', 'forward_config');
  groups = json(groups, '[]', 'models', 'vip_levels', 'model_agents');
  await record(groups).execute();

  let apps = db.schema
    .createTable('apps')
    .addColumn('app_id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('id', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('group_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('quota_expires_at', 'bigint');
  apps = text(apps, 'name', 'remark');
  apps = int(apps, 'is_bind_group', 'is_limit_quota');
  apps = big(apps, 'quota', 'used_quota');
  apps = json(apps, '[]', 'models', 'ip_whitelist', 'ip_blacklist');
  await record(apps).execute();
  await db.schema.createIndex('apps_user').on('apps').column('user_id').execute();

  let appKeys = id('app_keys')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('app_id', 'integer', (c) => c.notNull())
    .addColumn('group_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('quota_expires_at', 'bigint')
    .addColumn('first_used_at', 'bigint');
  appKeys = text(appKeys, 'key_cipher', 'key_hash', 'key_mask', 'remark');
  // quota_expires_rule: 1 fixed date (quota_expires_at), 2 minutes from first use (quota_expires_minutes).
  appKeys = int(appKeys, 'is_bind_group', 'is_limit_quota', 'quota_expires_rule', 'quota_expires_minutes');
  appKeys = big(appKeys, 'quota', 'used_quota');
  appKeys = json(appKeys, '[]', 'models', 'ip_whitelist', 'ip_blacklist');
  await record(appKeys).execute();
  await db.schema.createIndex('app_keys_hash').on('app_keys').column('key_hash').unique().execute();
  await db.schema.createIndex('app_keys_app').on('app_keys').columns(['app_id', 'user_id']).execute();

  // Models and groups granted to an account (docs/ORIGINAL-API.md §3.1 permissions).
  await db.schema.alterTable('users').addColumn('models', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema.alterTable('users').addColumn('groups', 'text', (c) => c.notNull().defaultTo('[]')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['app_keys', 'apps', 'groups', 'provider_keys', 'model_agents', 'models']) await db.schema.dropTable(t).execute();
  await db.schema.alterTable('users').dropColumn('groups').execute();
  await db.schema.alterTable('users').dropColumn('models').execute();
}
