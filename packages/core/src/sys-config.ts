// System config sections and defaults (docs/SPEC.md §3.15, docs/ORIGINAL-API.md §3.10). Stored per section; the defaults
// here fill whatever a stored section lacks.
import { z } from 'zod';

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

export interface SysConfig {
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
  email: { open: false, host: '', port: 465, user_name: '', password: '', from_name: '' },
  base: { err_retry: 3, short_timeout: 300, long_timeout: 600, breaker_error_rate: 50, breaker_min_calls: 10, breaker_cooldown: 30 },
  log: { open: true, chat_records: ['prompt', 'completion'], chat_reserve: 90, response_reserve: 30 },
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
};
export type SysConfigSection = keyof SysConfig;

export const SYS_CONFIG_SECTIONS = Object.keys(SYS_CONFIG_DEFAULTS) as SysConfigSection[];

/** Sections with an `open` switch (`POST /sys/config/change/status`). */
export const SWITCHABLE_SECTIONS = SYS_CONFIG_SECTIONS.filter((s) => 'open' in SYS_CONFIG_DEFAULTS[s]);

/** The console's system config tabs (docs/SPEC.md §2.4): "all" shows every section. */
export const SYS_CONFIG_TABS = {
  global: ['user_login_register', 'reseller_login_register', 'admin_login', 'email'],
  general: ['base', 'log', 'statistics'],
  task: ['task', 'auto_enable_error'],
  api: ['auto_disabled_error', 'not_retry_error', 'user_shield_error', 'reseller_shield_error', 'not_shield_error'],
  digital_human: ['digital_human'],
  security: ['sign_in_limits', 'sites', 'two_factor', 'audit_log'],
} as const satisfies Record<string, readonly SysConfigSection[]>;

/** A reserved host: a hostname, optionally `*.` before it for all its subdomains. */
const RESERVED_HOST = /^(\*\.)?(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

// Validation of `POST /sys/config/update` (docs/ORIGINAL-API.md §3.10): one schema per section; an update may
// carry part of a section (the rest keeps its stored value).
const errorText = z.string().trim().min(1).max(500);
const cronField = z.string().trim().min(1).max(100);
const loginSchema = z.object({
  account_login: z.boolean(),
  email_login: z.boolean(),
  email_register: z.boolean(),
  email_retrieve: z.boolean(),
  /** 60 s to 365 days. */
  session_expire: z.number().int().min(60).max(365 * 86400),
});
const errorTextSchema = z.object({ open: z.boolean(), errors: z.array(errorText).max(1000) });

export const sysSectionSchemas = {
  user_login_register: loginSchema,
  reseller_login_register: loginSchema,
  admin_login: loginSchema,
  email: z.object({
    open: z.boolean(),
    host: z.string().trim().toLowerCase().max(253).refine((v) => v === '' || /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(v), 'site.mail_host'),
    port: z.number().int().min(1).max(65535),
    user_name: z.string().trim().max(200),
    /** Empty keeps the stored password. */
    password: z.string().max(200),
    from_name: z.string().trim().max(100),
  }),
  base: z.object({
    err_retry: z.number().int().min(-1).max(100),
    short_timeout: z.number().int().min(1).max(86400),
    long_timeout: z.number().int().min(1).max(86400),
    breaker_error_rate: z.number().int().min(1).max(100),
    breaker_min_calls: z.number().int().min(1).max(100_000),
    breaker_cooldown: z.number().int().min(1).max(3600),
  }),
  log: z.object({
    open: z.boolean(),
    chat_records: z.array(z.enum(['prompt', 'completion', 'messages', 'image', 'audio'])).max(5),
    chat_reserve: z.number().int().min(0).max(36500),
    response_reserve: z.number().int().min(0).max(36500),
  }),
  auto_disabled_error: errorTextSchema,
  not_retry_error: errorTextSchema,
  auto_enable_error: z.object({
    open: z.boolean(),
    enable_errors: z.array(z.object({ cron: cronField, enable_time: z.number().int().min(0).max(365 * 86400), error: z.string().trim().max(500) })).max(100),
  }),
  user_shield_error: errorTextSchema,
  reseller_shield_error: errorTextSchema,
  not_shield_error: errorTextSchema,
  statistics: z.object({
    open: z.boolean(),
    cron: cronField,
    limit: z.number().int().min(1).max(1_000_000),
    lock_minutes: z.number().int().min(1).max(1440),
  }),
  task: z.object({ lock_minutes: z.number().int().min(1).max(1440) }),
  digital_human: z.object({ task_timeout: z.number().int().min(0).max(10080) }),
  sites: z.object({
    reserved_hosts: z.array(z.string().trim().toLowerCase().max(253).regex(RESERVED_HOST, 'site.domain')).max(1000),
    upload_max_files: z.number().int().min(0).max(100_000),
    upload_max_mb: z.number().int().min(0).max(100_000),
  }),
  two_factor: z.object({ required: z.boolean() }),
  audit_log: z.object({ audit_reserve: z.number().int().min(0).max(36500) }),
  sign_in_limits: z.object({
    ip_per_minute: z.number().int().min(0).max(1_000_000),
    ip_per_day: z.number().int().min(0).max(100_000_000),
    account_per_minute: z.number().int().min(0).max(1_000_000),
    code_ip_per_minute: z.number().int().min(0).max(1_000_000),
    code_ip_per_day: z.number().int().min(0).max(100_000_000),
  }),
} as const satisfies { [S in SysConfigSection]: z.ZodType<SysConfig[S]> };

const sectionAction = z.enum(SYS_CONFIG_SECTIONS as [SysConfigSection, ...SysConfigSection[]]);
export const sysConfigStatusSchema = z.object({ action: sectionAction, open: z.boolean() });
export const sysConfigRefreshSchema = z.object({ action: z.literal('refresh_api_cache') });

/** The email section as `GET /sys/config/detail` returns it: the password never leaves the server. */
export type SysConfigWire = Omit<SysConfig, 'email'> & { email: EmailSection & { password_set: boolean } };
