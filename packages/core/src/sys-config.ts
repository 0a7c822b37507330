// System config sections and defaults (docs/SPEC.md §3.15, docs/ORIGINAL-API.md §3.10). Stored per section; the defaults
// here fill whatever a stored section lacks.
import { z } from 'zod';
import { APP_KEY_PREFIX } from './entities/app-key';
import { boolField, decimalField, numberish } from './schemas/encodings';
import { ipListField } from './schemas/usage-limits';

interface LoginSection {
  account_login: boolean;
  email_login: boolean;
  email_register: boolean;
  email_retrieve: boolean;
  /** Session lifetime in seconds. */
  session_expire: number;
}

interface EmailSection {
  open: boolean;
  host: string;
  port: number;
  user_name: string;
  password: string;
  from_name: string;
  /** The original's pause between mails (ms): kept as sent (ORIGINAL_ONLY_FIELDS). */
  interval: number;
}

/** Gateway behaviour (docs/ORIGINAL-API.md §3.10 `base`, `http`). */
export interface BaseSection {
  /** Retries after a failed attempt: N > 0 at most N, 0 none, N < 0 every candidate key once. */
  err_retry: number;
  /** Upstream timeouts in seconds: non-streaming calls, and streams (until the first byte). */
  short_timeout: number;
  long_timeout: number;
  /**
   * Circuit breakers per provider key and per model agent (gateway/upstream-health.ts): transient
   * failures (429, 5xx, timeouts) at or above `breaker_error_rate` % of at least `breaker_min_calls`
   * calls in the last minute take it out of rotation for `breaker_cooldown` seconds, then one live
   * request probes it (a failed probe doubles the wait, up to 10 minutes).
   */
  breaker_error_rate: number;
  breaker_min_calls: number;
  breaker_cooldown: number;
  /** The original's error-count thresholds that disable a key, agent or agent key: kept as sent
   *  (our breakers and auto-disable rules do that job). */
  model_key_err_disable: number;
  model_agent_err_disable: number;
  model_agent_key_err_disable: number;
}

/** An error-text list (substring match, case-insensitive) that can be switched off. */
export interface ErrorTextSection {
  open: boolean;
  errors: string[];
}

/** A rule that puts auto-disabled keys back: on `cron`, keys disabled for at least `enable_time`
 * seconds whose reason contains `error` ('' = any reason). */
export interface AutoEnableRule {
  cron: string;
  enable_time: number;
  error: string;
}

export interface AutoEnableSection {
  open: boolean;
  enable_errors: AutoEnableRule[];
}

interface LogSection {
  open: boolean;
  /** What a call log keeps besides its figures: prompt, completion, messages. */
  chat_records: string[];
  /** Days to keep call logs; 0 = forever. */
  chat_reserve: number;
  /** Days to keep responses stored by `/v1/responses` (`store: true`); 0 = forever. */
  response_reserve: number;
  /** The original's per-kind retention, the statuses its cleanup deletes and its schedule: kept as sent
   *  (here chat_reserve covers every kind, daily at 02:00). */
  image_reserve: number;
  audio_reserve: number;
  status: number[];
  cron: string;
}

/** Statistics job (docs/ORIGINAL-API.md §3.10 `statistics`): `limit` caps the rows one statistics query reads. */
interface StatisticsSection {
  open: boolean;
  cron: string;
  /** Rows per statistics query; 10000 or less is advisable. */
  limit: number;
  lock_minutes: number;
}

/** Background tasks (quota, notice, cleanup jobs): minutes a worker holds a task's lock. */
interface TaskSection {
  lock_minutes: number;
}

/** Digital-human tasks: minutes before a running task counts as failed (0 = no timeout). */
interface DigitalHumanSection {
  task_timeout: number;
}

/** Sign-in and code-sending limits (per client IP and per account); 0 = no limit. */
interface SignInLimitsSection {
  ip_per_minute: number;
  ip_per_day: number;
  account_per_minute: number;
  code_ip_per_minute: number;
  code_ip_per_day: number;
}

/** Two-factor sign-in policy (auth/two-factor.ts). */
interface TwoFactorSection {
  /** Admins and resellers must enrol TOTP; until they do, only the enrolment screens answer. */
  required: boolean;
}

/**
 * Site configs and their uploads. `reserved_hosts`: domains no reseller may use for a site (`*.x` also
 * covers every subdomain of x); IP addresses, localhost and the hosts admins sign in on are reserved
 * always. The upload quota holds per reseller (admins are not limited): files and megabytes kept;
 * 0 = no limit.
 */
interface SitesSection {
  reserved_hosts: string[];
  upload_max_files: number;
  upload_max_mb: number;
}

/** The audit log (server audit/record.ts): days its rows are kept; 0 = forever. */
interface AuditLogSection {
  audit_reserve: number;
}

/**
 * The original console's `core` (docs/ORIGINAL-API.md §3.10): kept and answered as it reads them. Our app-key
 * format is fixed (APP_KEY_PREFIX, entities/app-key.ts), so the prefix only takes that value; the error
 * prefix has no counterpart here (our error codes carry none) and is stored as given.
 */
interface CoreSection {
  secret_key_prefix: string;
  error_prefix: string;
}

/**
 * Upstream HTTP (docs/SPEC.md §3.15.2). `timeout` (seconds, 0 = none) caps every upstream request on top of
 * base.short_timeout / long_timeout, which stay the per-kind limits: a request waits at most the smaller
 * one. `proxy_url` (http:// or https://, '' = direct) routes every upstream request through that proxy;
 * `open` is the original's flag, kept as sent (its console has no switch for it; the URL decides).
 */
export interface HttpSection {
  open: boolean;
  timeout: number;
  proxy_url: string;
}

/**
 * Quota notice defaults and switches (docs/SPEC.md §3.15.3): a user's own warning threshold wins; these
 * apply to users without one. `threshold` is quota units (the original console sends dollars × 500000),
 * `expired_threshold` days. `expired_clear` / `expired_clear_defer` are the original's "zero the balance
 * once expired": kept as sent, not acted on (expired quota is refused at the gateway instead).
 */
export interface QuotaSection {
  warning: boolean;
  threshold: number;
  expired_warning: boolean;
  expired_threshold: number;
  exhausted_notice: boolean;
  expired_notice: boolean;
  expired_clear: boolean;
  expired_clear_defer: number;
}

/** A scheduled job: on `cron` while `open`. `lock_minutes` is the original's run lock, kept as sent: the quota
 *  notices claim each mail, so overlapping runs are safe without one (jobs/notices.ts). */
interface CronSection {
  open: boolean;
  cron: string;
  lock_minutes: number;
}

/**
 * Maintenance mode (docs/SPEC.md §3.15.1): while `open`, every gateway call is answered 503 with `message`
 * ('' = a standard text) in the caller's protocol, except from addresses on `ip_whitelist`.
 */
interface ServiceUnavailableSection {
  open: boolean;
  ip_whitelist: string[];
  message: string;
}

/** Debug logging: while on, the server logs at debug level (docs/SPEC.md §3.15.4). */
interface DebugSection {
  open: boolean;
}

export interface SysConfig {
  core: CoreSection;
  http: HttpSection;
  quota: QuotaSection;
  /** The original's general notice job; our only notices are the quota ones (quota_task): kept as sent. */
  notice: CronSection;
  quota_task: CronSection;
  service_unavailable: ServiceUnavailableSection;
  debug: DebugSection;
  user_login_register: LoginSection;
  reseller_login_register: LoginSection;
  admin_login: LoginSection;
  email: EmailSection;
  base: BaseSection;
  log: LogSection;
  /** Texts that disable the key that produced them (besides 401/403 and quota errors). */
  auto_disabled_error: ErrorTextSection;
  /** Texts that are the client's fault: never retried. */
  not_retry_error: ErrorTextSection;
  auto_enable_error: AutoEnableSection;
  /** Upstream error texts replaced by a generic message before they reach users / resellers. */
  user_shield_error: ErrorTextSection;
  reseller_shield_error: ErrorTextSection;
  /** Texts never shielded (passed through even when a shield list matches). */
  not_shield_error: ErrorTextSection;
  statistics: StatisticsSection;
  task: TaskSection;
  digital_human: DigitalHumanSection;
  sites: SitesSection;
  sign_in_limits: SignInLimitsSection;
  two_factor: TwoFactorSection;
  audit_log: AuditLogSection;
}

export const SYS_CONFIG_DEFAULTS: SysConfig = {
  user_login_register: { account_login: true, email_login: true, email_register: true, email_retrieve: true, session_expire: 21600 },
  reseller_login_register: { account_login: true, email_login: true, email_register: false, email_retrieve: true, session_expire: 21600 },
  admin_login: { account_login: true, email_login: true, email_register: false, email_retrieve: true, session_expire: 21600 },
  email: { open: false, host: '', port: 465, user_name: '', password: '', from_name: '', interval: 3000 },
  base: {
    err_retry: 3,
    short_timeout: 300,
    long_timeout: 600,
    breaker_error_rate: 50,
    breaker_min_calls: 10,
    breaker_cooldown: 30,
    model_key_err_disable: 100_000,
    model_agent_err_disable: 100_000,
    model_agent_key_err_disable: 100_000,
  },
  log: { open: true, chat_records: ['prompt', 'completion'], chat_reserve: 90, response_reserve: 30, image_reserve: 90, audio_reserve: 90, status: [1, 2, 3, -1], cron: '0 0 2 * * ?' },
  auto_disabled_error: {
    open: true,
    errors: ['Incorrect API key provided', 'invalid_api_key', 'You exceeded your current quota', 'account_deactivated', 'Your credit balance is too low', 'PERMISSION_DENIED', 'BILLING_DISABLED', 'API key not valid'],
  },
  not_retry_error: {
    open: true,
    errors: ['context_length_exceeded', 'maximum context length', 'prompt is too long', 'content_policy_violation', 'safety system', 'inappropriate content', 'Invalid URL', 'image too large'],
  },
  // Off until an admin writes rules: a wrong key put back would only fail again.
  auto_enable_error: { open: false, enable_errors: [] },
  user_shield_error: { open: true, errors: ['api key', 'api_key', 'apikey', 'quota', 'billing', 'credit balance', 'organization'] },
  reseller_shield_error: { open: true, errors: ['api key', 'api_key', 'apikey', 'billing', 'credit balance', 'organization'] },
  not_shield_error: { open: true, errors: ['context_length_exceeded', 'content_policy_violation'] },
  // Every 10 s: a call shows in the bill and dashboard within seconds; a run with nothing new is one indexed query.
  statistics: { open: true, cron: '*/10 * * * * ?', limit: 1000, lock_minutes: 30 },
  task: { lock_minutes: 30 },
  digital_human: { task_timeout: 0 },
  sites: { reserved_hosts: [], upload_max_files: 20, upload_max_mb: 20 },
  two_factor: { required: false },
  audit_log: { audit_reserve: 180 },
  sign_in_limits: { ip_per_minute: 30, ip_per_day: 1000, account_per_minute: 20, code_ip_per_minute: 10, code_ip_per_day: 200 },
  // The original console's sections (issue 15 part 9).
  core: { secret_key_prefix: APP_KEY_PREFIX, error_prefix: 'fastapi' },
  http: { open: true, timeout: 0, proxy_url: '' },
  quota: {
    warning: true,
    threshold: 0,
    expired_warning: true,
    expired_threshold: 0,
    exhausted_notice: true,
    expired_notice: true,
    expired_clear: false,
    expired_clear_defer: 0,
  },
  notice: { open: true, cron: '0 */10 * * * ?', lock_minutes: 30 },
  quota_task: { open: true, cron: '0 */10 * * * ?', lock_minutes: 30 },
  service_unavailable: { open: false, ip_whitelist: [], message: '' },
  debug: { open: false },
};
export type SysConfigSection = keyof SysConfig;

export const SYS_CONFIG_SECTIONS = Object.keys(SYS_CONFIG_DEFAULTS) as SysConfigSection[];

/** Sections with an `open` switch (`POST /sys/config/change/status`). */
export const SWITCHABLE_SECTIONS = SYS_CONFIG_SECTIONS.filter((s) => 'open' in SYS_CONFIG_DEFAULTS[s]);

/** The console's system config tabs (docs/SPEC.md §2.4): "all" shows every section. */
export const SYS_CONFIG_TABS = {
  global: ['user_login_register', 'reseller_login_register', 'admin_login', 'email'],
  general: ['base', 'http', 'core', 'log', 'statistics', 'debug'],
  task: ['task', 'quota_task', 'auto_enable_error'],
  api: ['service_unavailable', 'quota', 'auto_disabled_error', 'not_retry_error', 'user_shield_error', 'reseller_shield_error', 'not_shield_error'],
  digital_human: ['digital_human'],
  security: ['sign_in_limits', 'sites', 'two_factor', 'audit_log'],
} as const satisfies Record<string, readonly SysConfigSection[]>;

/** A reserved host: a hostname, optionally `*.` before it for all its subdomains. */
const RESERVED_HOST = /^(\*\.)?(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

// Validation of `POST /sys/config/update` (docs/ORIGINAL-API.md §3.10): one schema per section; an update may
// carry part of a section (the rest keeps its stored value). Numbers and booleans also come as text and
// "" stands for an empty number (left as stored) or list, as the original console sends them (encodings.ts).
const errorText = z.string().trim().min(1).max(500);
const cronField = z.string().trim().min(1).max(100);
/** An integer setting; "" (the original's empty number) is 0 where 0 is allowed, else missing. */
const int = (min: number, max: number) => numberish(z.number().int().min(min).max(max), min <= 0 && max >= 0 ? 0 : undefined);
/** A list setting; "" is the empty list. Empty items stay and fail the item's own rule (an empty error text is a mistake). */
const list = <T extends z.ZodType>(item: T, max: number) => z.preprocess((v) => (v === '' ? [] : v), z.array(item).max(max));
const loginSchema = z.object({
  account_login: boolField,
  email_login: boolField,
  email_register: boolField,
  email_retrieve: boolField,
  /** 60 s to 365 days. */
  session_expire: int(60, 365 * 86400),
});
const errorTextSchema = z.object({ open: boolField, errors: list(errorText, 1000) });
const cronSchema = z.object({ open: boolField, cron: cronField, lock_minutes: int(1, 1440) });

/** Proxies undici's ProxyAgent can use (docs/SPEC.md §3.15.2): http:// or https://, optional user:password@,
 *  a host and port, no path; '' = none. */
const PROXY_URL = /^https?:\/\/(?:[^\s/?#@]+@)?(?:[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\])(?::\d{1,5})?\/?$/i;
const isProxyUrl = (text: string): boolean => text === '' || PROXY_URL.test(text);

export const sysSectionSchemas = {
  core: z.object({
    secret_key_prefix: z.string().trim().refine((v) => v === APP_KEY_PREFIX, 'sys.key_prefix_fixed'),
    error_prefix: z.string().trim().max(50),
  }),
  http: z.object({
    open: boolField,
    timeout: int(0, 86400),
    proxy_url: z.string().trim().max(500).refine(isProxyUrl, 'sys.proxy_url'),
  }),
  quota: z.object({
    warning: boolField,
    /** Quota units; the original console sends dollars × 500000, which may carry a fraction. */
    threshold: decimalField(0, 1e15).transform(Math.round),
    expired_warning: boolField,
    expired_threshold: int(0, 3650),
    exhausted_notice: boolField,
    expired_notice: boolField,
    expired_clear: boolField,
    expired_clear_defer: int(0, 525_600),
  }),
  notice: cronSchema,
  quota_task: cronSchema,
  service_unavailable: z.object({
    open: boolField,
    ip_whitelist: ipListField,
    message: z.string().trim().max(500),
  }),
  debug: z.object({ open: boolField }),
  user_login_register: loginSchema,
  reseller_login_register: loginSchema,
  admin_login: loginSchema,
  email: z.object({
    open: boolField,
    host: z.string().trim().toLowerCase().max(253).refine((v) => v === '' || /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(v), 'site.mail_host'),
    port: int(1, 65535),
    user_name: z.string().trim().max(200),
    /** Empty keeps the stored password. */
    password: z.string().max(200),
    from_name: z.string().trim().max(100),
    interval: int(0, 3_600_000),
  }),
  base: z.object({
    err_retry: int(-1, 100),
    short_timeout: int(1, 86400),
    long_timeout: int(1, 86400),
    breaker_error_rate: int(1, 100),
    breaker_min_calls: int(1, 100_000),
    breaker_cooldown: int(1, 3600),
    model_key_err_disable: int(0, 1_000_000_000),
    model_agent_err_disable: int(0, 1_000_000_000),
    model_agent_key_err_disable: int(0, 1_000_000_000),
  }),
  log: z.object({
    open: boolField,
    chat_records: list(z.enum(['prompt', 'completion', 'messages', 'image', 'audio']), 5),
    chat_reserve: int(0, 36500),
    response_reserve: int(0, 36500),
    image_reserve: int(0, 36500),
    audio_reserve: int(0, 36500),
    status: list(numberish(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(-1)])), 4),
    cron: cronField,
  }),
  auto_disabled_error: errorTextSchema,
  not_retry_error: errorTextSchema,
  auto_enable_error: z.object({
    open: boolField,
    enable_errors: list(z.object({ cron: cronField, enable_time: int(0, 365 * 86400), error: z.string().trim().max(500) }), 100),
  }),
  user_shield_error: errorTextSchema,
  reseller_shield_error: errorTextSchema,
  not_shield_error: errorTextSchema,
  statistics: z.object({
    open: boolField,
    cron: cronField,
    limit: int(1, 1_000_000),
    lock_minutes: int(1, 1440),
  }),
  task: z.object({ lock_minutes: int(1, 1440) }),
  digital_human: z.object({ task_timeout: int(0, 10080) }),
  sites: z.object({
    reserved_hosts: list(z.string().trim().toLowerCase().max(253).regex(RESERVED_HOST, 'site.domain'), 1000),
    upload_max_files: int(0, 100_000),
    upload_max_mb: int(0, 100_000),
  }),
  two_factor: z.object({ required: boolField }),
  audit_log: z.object({ audit_reserve: int(0, 36500) }),
  sign_in_limits: z.object({
    ip_per_minute: int(0, 1_000_000),
    ip_per_day: int(0, 100_000_000),
    account_per_minute: int(0, 1_000_000),
    code_ip_per_minute: int(0, 1_000_000),
    code_ip_per_day: int(0, 100_000_000),
  }),
} as const satisfies { [S in SysConfigSection]: z.ZodType<SysConfig[S], unknown> };

/**
 * Fields carried only so the original console's forms round-trip (each says so where it is declared):
 * stored and answered, used by nothing here, and left off our own console's forms (a section left with
 * nothing, `notice`, is not shown there at all).
 */
export const ORIGINAL_ONLY_FIELDS: Partial<Record<SysConfigSection, readonly string[]>> = {
  email: ['interval'],
  base: ['model_key_err_disable', 'model_agent_err_disable', 'model_agent_key_err_disable'],
  log: ['image_reserve', 'audio_reserve', 'status', 'cron'],
  core: ['error_prefix'],
  http: ['open'],
  notice: ['open', 'cron', 'lock_minutes'],
  quota_task: ['lock_minutes'],
  quota: ['expired_clear', 'expired_clear_defer'],
};

const sectionAction = z.enum(SYS_CONFIG_SECTIONS as [SysConfigSection, ...SysConfigSection[]]);
export const sysConfigStatusSchema = z.object({ action: sectionAction, open: boolField });
export const sysConfigRefreshSchema = z.object({ action: z.literal('refresh_api_cache') });

/** The email section as `GET /sys/config/detail` returns it: the password never leaves the server. */
export type SysConfigWire = Omit<SysConfig, 'email'> & { email: EmailSection & { password_set: boolean } };
