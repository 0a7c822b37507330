// Table types (kysely). snake_case like the wire; times are epoch milliseconds; money is integer quota.
import type { ColumnType, Generated, Insertable, Kysely, Selectable, Updateable } from 'kysely';

export interface UsersTable {
  id: string;
  user_id: Generated<number>;
  role: 'admin' | 'reseller' | 'user';
  account: string;
  name: string;
  email: string;
  phone: string;
  avatar: string;
  profile: string;
  password_hash: string;
  rid: number;
  quota: number;
  used_quota: number;
  quota_expires_at: number | null;
  status: number;
  remark: string;
  login_ip: string;
  login_time: number | null;
  login_domain: string;
  failed_logins: number;
  locked_until: number | null;
  /** JSON id arrays: models and groups granted to the account. */
  models: Generated<string>;
  groups: Generated<string>;
  /** JSON rate limits {rps, rpm, …}; '{}' = none. */
  rate_limits: Generated<string>;
  /** Managed-user settings (migration 06): last quota type, 0/1 flags, $ and day thresholds. */
  quota_type: Generated<number>;
  is_limit_quota: Generated<number>;
  quota_warning: Generated<number>;
  warning_threshold: Generated<number>;
  expire_warning_threshold: Generated<number>;
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
  /** JSON arrays of normalized entries (wildcards allowed). */
  ip_whitelist: Generated<string>;
  ip_blacklist: Generated<string>;
  /** A reseller's floor (migration 2026-11-24-08): the lowest discount its users are billed at, basis points (10000 = full price). */
  floor_bp: Generated<number>;
  created_at: ColumnType<number, number, never>;
  updated_at: number;
}

/** Quota movements (reference §3.11): type 1 recharge, 2 deduction, 3 gift, 4 expire. */
export interface DealRecordsTable {
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
export interface StatUserModelDayTable extends StatMeasures {
  model: string;
}
/** The whole installation per model and day (the admin's model ranking and share). */
export interface StatModelDayTable extends Omit<StatMeasures, 'user_id' | 'rid'> {
  model: string;
}
export interface StatAppDayTable extends StatMeasures {
  app_id: number;
}
export interface StatAppKeyDayTable extends StatMeasures {
  app_id: number;
  app_key_id: string;
  /** Masked app key. */
  creator: string;
}

/** Where the statistics job stands in call_logs (keyset on created_at, id), and its lock. */
export interface StatCursorsTable {
  name: string;
  created_at: number;
  last_id: string;
  lock_until: number;
  updated_at: number;
}

/** Async task (SPEC §3 Task). status: 1 queued, 2 synthesizing, 3 completed, -1 failed, -2 timed out. */
export interface TasksTable {
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

export interface SessionsTable {
  token_hash: string;
  user_id: number;
  role: 'admin' | 'reseller' | 'user';
  ip: string;
  expires_at: number;
  created_at: number;
}

export interface VerifyCodesTable {
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

export interface SysConfigsTable {
  section: string;
  value: string;
  updated_at: number;
}

export interface SiteConfigsTable {
  id: string;
  user_id: number;
  domain: string;
  title: string;
  logo: string;
  favicon: string;
  avatar: string;
  bg_img: string;
  copyright: string;
  jump_url: string;
  keywords: string;
  description: string;
  icp_beian: string;
  ga_beian: string;
  register_tips: string;
  register_welcome: string;
  grant_quota: number;
  /** Minutes after registration (reference §3.9), 0 = never. */
  quota_expires_at: number;
  support_email_suffix: string;
  mail_host: string;
  mail_port: number;
  mail_user_name: string;
  /** Ciphertext (security/secrets.ts). */
  mail_password: string;
  mail_from_name: string;
  carousel1_title: string;
  carousels1: string;
  carousel2_title: string;
  carousels2: string;
  announcement_title: string;
  announcement_more_url: string;
  announcements: string;
  document_title: string;
  document_more_url: string;
  documents: string;
  recharge_tips: string;
  remark: string;
  status: number;
  /** SiteApproval (core): 0 pending, 1 approved by an admin; only approved sites decide anything. */
  approved: Generated<number>;
  created_at: ColumnType<number, number, never>;
  updated_at: number;
}

/** A stored upload (DATA_DIR/uploads/<name>): the per-account quota and the cleanup read these. */
export interface UploadsTable {
  name: string;
  user_id: number;
  bytes: number;
  created_at: number;
}

export interface CertificationsTable {
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

export interface CorpsTable {
  id: string;
  name: string;
  code: string;
  sort: number;
  /** 0 | 1: booleans are integers so SQLite and PostgreSQL agree. */
  is_public: number;
  remark: string;
  status: number;
  created_at: ColumnType<number, number, never>;
  updated_at: number;
}

/** Columns every catalogue record has. Booleans are 0 | 1; JSON columns are text. */
interface RecordColumns {
  id: string;
  status: number;
  created_at: ColumnType<number, number, never>;
  updated_at: number;
}

export interface ModelsTable extends RecordColumns {
  corp: string;
  name: string;
  model: string;
  type: number;
  base_url: string;
  path: string;
  remark: string;
  request_data_format: number;
  response_data_format: number;
  is_public: number;
  is_enable_model_agent: number;
  lb_strategy: number;
  is_enable_preset_config: number;
  is_enable_forward: number;
  is_enable_fallback: number;
  /** JSON object of every quota structure (text_quota, image_quota, …). */
  quotas: string;
  preset_config: string;
  forward_config: string;
  fallback_config: string;
  /** JSON id arrays. */
  groups: string;
  model_agents: string;
}

export interface ModelAgentsTable extends RecordColumns {
  corp: string;
  name: string;
  base_url: string;
  path: string;
  weight: number;
  remark: string;
  is_enable_model_replace: number;
  is_never_disable: number;
  lb_strategy: number;
  is_auto_disabled: number;
  auto_disabled_reason: string;
  models: string;
  replace_models: string;
  target_models: string;
  fallback_models: string;
  /** 'chat' | 'responses': the wire API of an OpenAI-family upstream (core entities/model-agent.ts). */
  wire_api: Generated<string>;
}

export interface ProviderKeysTable extends RecordColumns {
  corp: string;
  key_cipher: string;
  key_hash: string;
  key_mask: string;
  weight: number;
  remark: string;
  is_agents_only: number;
  is_never_disable: number;
  is_limit_quota: number;
  is_auto_disabled: number;
  auto_disabled_reason: string;
  quota: number;
  used_quota: number;
  models: string;
  model_agents: string;
}

export interface GroupsTable extends RecordColumns {
  /** Owner: 0 or an admin's user_id for admin groups, the reseller's user_id for a reseller's own. */
  user_id: number;
  name: string;
  remark: string;
  /** Basis points: 10000 = pay 100 %. */
  discount_bp: number;
  is_default: number;
  is_public: number;
  weight: number;
  expires_at: number | null;
  is_limit_quota: number;
  quota: number;
  used_quota: number;
  /** JSON {rps, rpm, rpd, tps, tpm, tpd}. */
  rate_limits: string;
  is_enable_model_agent: number;
  lb_strategy: number;
  is_enable_forward: number;
  forward_config: string;
  models: string;
  vip_levels: string;
  model_agents: string;
}

export interface AppsTable extends RecordColumns {
  app_id: Generated<number>;
  user_id: number;
  name: string;
  remark: string;
  models: string;
  is_bind_group: number;
  group_id: string;
  is_limit_quota: number;
  quota: number;
  used_quota: number;
  quota_expires_at: number | null;
  ip_whitelist: string;
  ip_blacklist: string;
  rate_limits: Generated<string>;
}

export interface AppKeysTable extends RecordColumns {
  user_id: number;
  app_id: number;
  key_cipher: string;
  key_hash: string;
  key_mask: string;
  remark: string;
  models: string;
  is_bind_group: number;
  group_id: string;
  is_limit_quota: number;
  quota: number;
  used_quota: number;
  quota_expires_rule: number;
  quota_expires_at: number | null;
  quota_expires_minutes: number;
  first_used_at: number | null;
  ip_whitelist: string;
  ip_blacklist: string;
  rate_limits: Generated<string>;
}

/** One upstream attempt (SPEC §3 call log). total_price is the charge in quota units. */
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
  /** 1 success, 2 aborted, 3 retry, -1 failed, -100 abnormal (SPEC §4). */
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

export interface VipLevelsTable extends RecordColumns {
  /** Owner: 0 for admin levels, the reseller's user_id for a reseller's. */
  user_id: number;
  name: string;
  /** Basis points: 10000 = pay 100 %. */
  discount_bp: number;
  color: string;
  /** Minutes; 0 = permanent. */
  duration: number;
  /** JSON id array. */
  groups: string;
  is_public: number;
  is_default: number;
  sort: number;
  remark: string;
  /** JSON {rps, rpm, …}. */
  rate_limits: string;
  /** JSON [{type, recharge_quota, used_quota, target_level}]. */
  rules: string;
}

export interface LicensesTable extends RecordColumns {
  name: string;
  email: string;
  phone: string;
  type: number;
  node: number;
  user_count: number;
  app_count: number;
  expires_at: number | null;
  is_node_visible: number;
  remark: string;
  /** JSON [{ip, mac, node_id}]. */
  nodes: string;
  sign: string;
  secret_key: string;
}

/** The license this installation runs under (one row, id 'current'). */
export interface LicenseInstallTable {
  id: string;
  secret_key: string;
  installed_at: number;
}

/** One console write, reveal, export or sign-in of an admin or reseller (audit/record.ts); JSON text is masked. */
export interface AuditLogsTable {
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
export interface UserTwoFactorTable {
  user_id: number;
  secret: string;
  enabled: number;
  /** The last TOTP time step accepted: a code is taken once (replay protection). */
  last_step: number;
  created_at: number;
  updated_at: number;
}

/** Single-use recovery codes, stored as SHA-256 hashes. */
export interface TwoFactorRecoveryCodesTable {
  id: string;
  user_id: number;
  code_hash: string;
  used_at: number | null;
  created_at: number;
}

/** The sign-in step between the password (or email code) and the TOTP code: hashed, short-lived. */
export interface TwoFactorTicketsTable {
  ticket_hash: string;
  user_id: number;
  attempts: number;
  expires_at: number;
  created_at: number;
}

/** A session (by its token hash) that proved a fresh second factor, until `expires_at`. */
export interface StepUpsTable {
  token_hash: string;
  user_id: number;
  expires_at: number;
}

/** A response kept for `store: true` (gateway/response-store.ts); input and response are JSON text. */
export interface StoredResponsesTable {
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
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
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
export type StatUserDayRow = Selectable<StatUserDayTable>;
export type TaskRow = Selectable<TasksTable>;
export type NewTask = Insertable<TasksTable>;
export type AuditLogRow = Selectable<AuditLogsTable>;
