// Table types (kysely). snake_case like the wire; times are epoch milliseconds; money is integer quota.
import type { ColumnType, Generated, Insertable, Kysely, Selectable } from 'kysely';
import type { modelResource } from '@fastgate/core/entities/model';
import type { corpResource } from '@fastgate/core/entities/corp';
import type { groupResource } from '@fastgate/core/entities/group';
import type { modelAgentResource } from '@fastgate/core/entities/model-agent';
import type { providerKeyResource } from '@fastgate/core/entities/provider-key';
import type { appResource } from '@fastgate/core/entities/app';
import type { appKeyResource } from '@fastgate/core/entities/app-key';
import type { licenseResource } from '@fastgate/core/entities/license';
import type { siteConfigResource } from '@fastgate/core/entities/site-config';
import type { userResource } from '@fastgate/core/entities/user';
import type { vipResource } from '@fastgate/core/entities/vip';
import type { StoredColumns } from '@fastgate/core/resource';

/** Which database the product runs on. */
export type Dialect = 'sqlite' | 'postgres';

/** Resource columns a migration gives a default: inserts that do not set them (registration, seeds) may leave them out. */
type WithDefaults<T, K extends keyof T> = Omit<T, K> & { [P in K]: Generated<T[P]> };

/**
 * Accounts. The settings the console edits come from the user resource (core entities/user.ts); the
 * balance, sign-in state, notices and VIP counters are written by the ledger, auth and the jobs.
 */
interface UsersTable
  extends WithDefaults<StoredColumns<typeof userResource>, 'is_limit_quota' | 'quota_warning' | 'warning_threshold' | 'expire_warning_threshold' | 'groups' | 'models' | 'ip_whitelist' | 'ip_blacklist'> {
  id: string;
  user_id: Generated<number>;
  role: 'admin' | 'reseller' | 'user';
  avatar: string;
  profile: string;
  password_hash: string;
  rid: number;
  quota: number;
  used_quota: number;
  quota_expires_at: number | null;
  login_ip: string;
  login_time: number | null;
  login_domain: string;
  failed_logins: number;
  locked_until: number | null;
  /** JSON rate limits {rps, rpm, …}; '{}' = none. */
  rate_limits: Generated<string>;
  /** The last recharge's quota type (migration 06). */
  quota_type: Generated<number>;
  /** Quota notices already sent (1) since the last recharge. */
  warning_notice: Generated<number>;
  exhaustion_notice: Generated<number>;
  expire_warning_notice: Generated<number>;
  expire_notice: Generated<number>;
  /** VIP level id ('' = none) and its counters. */
  vip_level: Generated<string>;
  vip_level_recharge_quota: Generated<number>;
  vip_level_used_quota: Generated<number>;
  vip_level_start_time: number | null;
  vip_level_expires_at: number | null;
  /** A reseller's floor (migration 2026-11-24-08): the lowest discount its users are billed at, basis points (10000 = full price). */
  floor_bp: Generated<number>;
  created_at: ColumnType<number, number, never>;
  updated_at: number;
}

/** Quota movements (docs/ORIGINAL-API.md §3.11): type 1 recharge, 2 deduction, 3 gift, 4 expire. */
interface DealRecordsTable {
  id: string;
  user_id: number;
  rid: number;
  quota: number;
  type: number;
  status: number;
  remark: string;
  creator: string;
  created_at: number;
  updated_at: number;
}

/** Measures of every statistics row (quota units for spend). */
interface StatMeasures {
  id: string;
  /** "YYYY-MM-DD" in the configured time zone. */
  stat_date: string;
  user_id: number;
  rid: number;
  /** Calls (retry attempts and smart-match decisions are not calls). */
  total: number;
  /** prompt + completion tokens. */
  tokens: number;
  /** Charged quota units. */
  spend: number;
  /** Calls that ended failed (-1) or aborted (2). */
  abnormal: number;
  abnormal_spend: number;
  /** What the calls cost their reseller at its floor (0 for calls of users without a reseller). */
  floor_spend: Generated<number>;
  /** Charges the caller's balance did not pay (its account was exempt: call_logs.is_limit_quota = 0). */
  exempt_spend: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** The bill: one row per user and day. */
export interface StatUserDayTable extends StatMeasures {
  /** Distinct models that day. */
  models: number;
}
interface StatUserModelDayTable extends StatMeasures {
  model: string;
}
/** The whole installation per model and day (the admin's model ranking and share). */
interface StatModelDayTable extends Omit<StatMeasures, 'user_id' | 'rid'> {
  model: string;
}
/** Per (model, user): the latest stat date the user called the model (the admin's distinct users per model). */
interface StatModelUserTable {
  model: string;
  user_id: number;
  last_date: string;
  updated_at: number;
}
interface StatAppDayTable extends StatMeasures {
  app_id: number;
}
interface StatAppKeyDayTable extends StatMeasures {
  app_id: number;
  app_key_id: string;
  /** Masked app key. */
  creator: string;
}

/** Where the statistics job stands in call_logs (keyset on created_at, id), and its lock. */
interface StatCursorsTable {
  name: string;
  created_at: number;
  last_id: string;
  lock_until: number;
  updated_at: number;
}

/** Async task (docs/SPEC.md §3.11 Task). status: 1 queued, 2 synthesizing, 3 completed, -1 failed, -2 timed out. */
interface TasksTable {
  id: string;
  /** The id callers poll with. */
  task_id: string;
  /** 'audio' | 'video' | 'videosecondcreation'. */
  kind: string;
  trace_id: string;
  user_id: number;
  rid: number;
  app_id: number;
  app_key_id: string;
  creator: string;
  model_id: string;
  model: string;
  type: number;
  corp: string;
  model_agent_id: string;
  key_id: string;
  /** The provider's own task id. */
  upstream_id: string;
  people_id: string;
  /** The submitted request body (JSON). */
  input: string;
  line_type: number;
  audio_url: string;
  video_url: string;
  video_pic: string;
  /** Seconds of generated media. */
  video_time: number;
  status: number;
  polls: number;
  /** Quota units taken at submission, and the final charge. */
  reserved: number;
  total_price: number;
  err_msg: string;
  client_ip: string;
  /** A poller holds the task until then (task lock minutes). */
  lock_until: number;
  /** Times out at this moment (digital-human task timeout; 0 = never). */
  deadline: number;
  /** JSON: accounts charged, agreed unit price and discount, the call-log row to complete (gateway/task-settlement.ts). */
  settlement: string;
  completed_at: number;
  created_at: number;
  updated_at: number;
}

interface SessionsTable {
  token_hash: string;
  user_id: number;
  role: 'admin' | 'reseller' | 'user';
  ip: string;
  expires_at: number;
  created_at: number;
}

interface VerifyCodesTable {
  id: string;
  /** Email address or phone number. */
  target: string;
  action: string;
  channel: string;
  code_hash: string;
  attempts: number;
  consumed: number;
  expires_at: number;
  created_at: number;
}

interface SysConfigsTable {
  section: string;
  value: string;
  updated_at: number;
}

/** Site configs: the columns come from the site config resource (core entities/site-config.ts), the mail server's beside them. */
interface SiteConfigsTable extends StoredColumns<typeof siteConfigResource> {
  id: string;
  user_id: number;
  mail_host: string;
  mail_port: number;
  mail_user_name: string;
  /** Ciphertext (security/secrets.ts). */
  mail_password: string;
  mail_from_name: string;
  /** SiteApproval (core): 0 pending, 1 approved by an admin; only approved sites decide anything. */
  approved: Generated<number>;
  created_at: ColumnType<number, number, never>;
  updated_at: number;
}

/** A stored upload (DATA_DIR/uploads/<name>): the per-account quota and the cleanup read these. */
interface UploadsTable {
  name: string;
  user_id: number;
  bytes: number;
  created_at: number;
}

interface CertificationsTable {
  id: string;
  user_id: number;
  real_name: string;
  id_type: string;
  /** Ciphertext of the ID number. */
  id_number: string;
  remark: string;
  status: number;
  created_at: ColumnType<number, number, never>;
  updated_at: number;
}

/** Corps: the columns come from the corp resource (core entities/corp.ts). */
interface CorpsTable extends RecordColumns, Omit<StoredColumns<typeof corpResource>, 'sort'> {
  /** Optional in the input (absent = after the last one), always set in the row. */
  sort: number;
}

/** Columns every catalogue record has. Booleans are 0 | 1; JSON columns are text. */
interface RecordColumns {
  id: string;
  status: number;
  created_at: ColumnType<number, number, never>;
  updated_at: number;
}

/** Models: the columns come from the model resource (core entities/model.ts). */
interface ModelsTable extends RecordColumns, StoredColumns<typeof modelResource> {
  /** JSON object of every quota structure (text_quota, image_quota, …). */
  quotas: string;
  /** JSON id arrays, left empty: a model's links are kept on its groups and agents. */
  groups: Generated<string>;
  model_agents: Generated<string>;
}

/** Auto-disable state of agents and keys (gateway/gateway.ts sets it, jobs/key-health.ts clears it). */
interface AutoDisabled {
  is_auto_disabled: Generated<number>;
  auto_disabled_reason: Generated<string>;
}

/** Model agents: the columns come from the agent resource (core entities/model-agent.ts). */
interface ModelAgentsTable extends RecordColumns, StoredColumns<typeof modelAgentResource>, AutoDisabled {}

/** Provider keys: the settings come from the key resource (core entities/provider-key.ts); the key is sealed. */
interface ProviderKeysTable extends RecordColumns, StoredColumns<typeof providerKeyResource>, AutoDisabled {
  /** Ciphertext, SHA-256 (look-ups and duplicates), and what lists show. */
  key_cipher: string;
  key_hash: string;
  key_mask: string;
  used_quota: Generated<number>;
}

/** Groups: the columns come from the group resource (core entities/group.ts), beside the ones it types in other units. */
interface GroupsTable extends RecordColumns, StoredColumns<typeof groupResource> {
  /** Owner: 0 or an admin's user_id for admin groups, the reseller's user_id for a reseller's own. */
  user_id: number;
  /** The discount in basis points: 10000 = pay 100 %. */
  discount_bp: number;
  /** Epoch ms; null = never. */
  expires_at: number | null;
  used_quota: Generated<number>;
}

/** The columns apps and app keys keep beside their resource's: the bound group, the expiry and the balance. */
interface LimitExtras {
  user_id: number;
  app_id: number;
  group_id: string;
  /** The ledger's; starts at 0. */
  used_quota: Generated<number>;
  /** Epoch ms; null = never. */
  quota_expires_at: number | null;
  /** Left to its default ('{}') when an input carries no limits. */
  rate_limits: Generated<string>;
}

/** Apps: the columns come from the app resource (core entities/app.ts). */
interface AppsTable extends RecordColumns, Omit<StoredColumns<typeof appResource>, 'rate_limits'>, Omit<LimitExtras, 'app_id'> {
  app_id: Generated<number>;
}

/** App keys: the columns come from the app key resource (core entities/app-key.ts), the sealed key beside them. */
interface AppKeysTable extends RecordColumns, Omit<StoredColumns<typeof appKeyResource>, 'rate_limits'>, LimitExtras {
  key_cipher: string;
  key_hash: string;
  key_mask: string;
  first_used_at: number | null;
}

/** One upstream attempt (docs/SPEC.md §3.12 call log). total_price is the charge in quota units. */
export interface CallLogsTable {
  id: string;
  trace_id: string;
  attempt: number;
  user_id: number;
  app_id: number;
  /** The user's reseller (0 = none), for the reseller's data scope. */
  rid: number;
  type: number;
  stream: number;
  is_enable_model_agent: number;
  is_retry: number;
  retry_count: number;
  is_smart_match: number;
  /** 1 success, 2 aborted, 3 retry, -1 failed, -100 abnormal (docs/SPEC.md §4.3). */
  status: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  /** Prompt tokens written to the provider's cache, and completion tokens spent reasoning (migration 07). */
  cache_write_tokens: Generated<number>;
  reasoning_tokens: Generated<number>;
  total_tokens: number;
  total_price: number;
  discount_bp: number;
  /** The caller's reseller's floor when the call was priced (basis points); 0 = no reseller. */
  floor_bp: Generated<number>;
  /** 1 = the charge came out of the caller's balance (users.is_limit_quota when admitted); 0 = usage only. */
  is_limit_quota: Generated<number>;
  /** Milliseconds. */
  conn_time: number;
  duration: number;
  total_time: number;
  internal_time: number;
  req_time: number;
  created_at: number;
  prompt_ratio: number;
  completion_ratio: number;
  endpoint: string;
  /** Masked app key. */
  creator: string;
  app_key_id: string;
  corp: string;
  corp_name: string;
  group_id: string;
  group_name: string;
  model_id: string;
  name: string;
  model: string;
  real_model_id: string;
  real_model: string;
  model_agent_id: string;
  model_agent_name: string;
  key_id: string;
  key_mask: string;
  client_ip: string;
  remote_ip: string;
  err_msg: string;
  prompt: string;
  completion: string;
  messages: string;
  /** The price's line items, JSON (core LineItem[]); '' for rows written before migration 07. */
  line_items: Generated<string>;
}

/** VIP levels: the columns come from the VIP resource (core entities/vip.ts). */
interface VipLevelsTable extends RecordColumns, StoredColumns<typeof vipResource> {
  /** Owner: 0 for admin levels, the reseller's user_id for a reseller's. */
  user_id: number;
  /** Basis points: 10000 = pay 100 %. */
  discount_bp: number;
}

/** Issued licenses: the columns come from the license resource (core entities/license.ts). */
interface LicensesTable extends RecordColumns, StoredColumns<typeof licenseResource> {
  /** Epoch ms; null = never. */
  expires_at: number | null;
  sign: string;
  secret_key: string;
}

/** The license this installation runs under (one row, id 'current'). */
interface LicenseInstallTable {
  id: string;
  secret_key: string;
  installed_at: number;
}

/** One console write, reveal, export or sign-in of an admin or reseller (audit/record.ts); JSON text is masked. */
interface AuditLogsTable {
  id: string;
  created_at: number;
  kind: string;
  user_id: number;
  account: string;
  role: string;
  ip: string;
  /** The route (`/api/v1/model/agent/update`) or a sign-in step's name. */
  action: string;
  table_name: string;
  /** JSON array of the record ids touched. */
  record_ids: string;
  /** JSON array of the fields whose values differ between before and after. */
  changed: string;
  before: string | null;
  after: string | null;
  input: string | null;
}

/** TOTP of an account (migration 2026-11-24-02): secret encrypted, enabled once a code confirmed it. */
interface UserTwoFactorTable {
  user_id: number;
  secret: string;
  enabled: number;
  /** The last TOTP time step accepted: a code is taken once (replay protection). */
  last_step: number;
  created_at: number;
  updated_at: number;
}

/** Single-use recovery codes, stored as SHA-256 hashes. */
interface TwoFactorRecoveryCodesTable {
  id: string;
  user_id: number;
  code_hash: string;
  used_at: number | null;
  created_at: number;
}

/** The sign-in step between the password (or email code) and the TOTP code: hashed, short-lived. */
interface TwoFactorTicketsTable {
  ticket_hash: string;
  user_id: number;
  attempts: number;
  expires_at: number;
  created_at: number;
}

/** A session (by its token hash) that proved a fresh second factor, until `expires_at`. */
interface StepUpsTable {
  token_hash: string;
  user_id: number;
  expires_at: number;
}

/** A response kept for `store: true` (gateway/response-store.ts); input and response are JSON text. */
interface StoredResponsesTable {
  id: string;
  user_id: number;
  previous_id: Generated<string>;
  created_at: number;
  input: string;
  response: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  verify_codes: VerifyCodesTable;
  sys_configs: SysConfigsTable;
  site_configs: SiteConfigsTable;
  uploads: UploadsTable;
  certifications: CertificationsTable;
  corps: CorpsTable;
  models: ModelsTable;
  model_agents: ModelAgentsTable;
  provider_keys: ProviderKeysTable;
  groups: GroupsTable;
  apps: AppsTable;
  app_keys: AppKeysTable;
  call_logs: CallLogsTable;
  deal_records: DealRecordsTable;
  vip_levels: VipLevelsTable;
  licenses: LicensesTable;
  license_install: LicenseInstallTable;
  stat_cursors: StatCursorsTable;
  stat_user_day: StatUserDayTable;
  stat_user_model_day: StatUserModelDayTable;
  stat_model_day: StatModelDayTable;
  stat_model_user: StatModelUserTable;
  stat_app_day: StatAppDayTable;
  stat_app_key_day: StatAppKeyDayTable;
  tasks: TasksTable;
  user_two_factor: UserTwoFactorTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  two_factor_tickets: TwoFactorTicketsTable;
  step_ups: StepUpsTable;
  audit_logs: AuditLogsTable;
  stored_responses: StoredResponsesTable;
}

export type DB = Kysely<Database>;
export type UserRow = Selectable<UsersTable>;
export type SiteConfigRow = Selectable<SiteConfigsTable>;
export type CorpRow = Selectable<CorpsTable>;
export type ModelRow = Selectable<ModelsTable>;
export type ModelAgentRow = Selectable<ModelAgentsTable>;
export type ProviderKeyRow = Selectable<ProviderKeysTable>;
export type GroupRow = Selectable<GroupsTable>;
export type AppRow = Selectable<AppsTable>;
export type AppKeyRow = Selectable<AppKeysTable>;
export type CallLogRow = Selectable<CallLogsTable>;
export type NewCallLog = Insertable<CallLogsTable>;
export type DealRecordRow = Selectable<DealRecordsTable>;
export type VipLevelRow = Selectable<VipLevelsTable>;
export type LicenseRow = Selectable<LicensesTable>;
export type TaskRow = Selectable<TasksTable>;
export type AuditLogRow = Selectable<AuditLogsTable>;
