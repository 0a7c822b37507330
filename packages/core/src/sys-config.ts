// System config sections and defaults (SPEC §3, reference §3.10). Stored per section; the defaults
// here fill whatever a stored section lacks.
export interface LoginSection {
  account_login: boolean;
  email_login: boolean;
  email_register: boolean;
  email_retrieve: boolean;
  /** Session lifetime in seconds. */
  session_expire: number;
}

export interface EmailSection {
  open: boolean;
  host: string;
  port: number;
  user_name: string;
  password: string;
  from_name: string;
}

/** Gateway behaviour (reference §3.10 `base`, `http`). */
export interface BaseSection {
  /** Retries after a failed attempt: N > 0 at most N, 0 none, N < 0 every candidate key once. */
  err_retry: number;
  /** Upstream timeouts in seconds: non-streaming calls, and streams (until the first byte). */
  short_timeout: number;
  long_timeout: number;
  /** Retryable errors of one key in one day (counters reset at 0:00) after which it is disabled. */
  model_key_err_disable: number;
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

export interface LogSection {
  open: boolean;
  /** What a call log keeps besides its figures: prompt, completion, messages. */
  chat_records: string[];
  /** Days to keep call logs; 0 = forever. */
  chat_reserve: number;
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
}

export const SYS_CONFIG_DEFAULTS: SysConfig = {
  user_login_register: { account_login: true, email_login: true, email_register: true, email_retrieve: true, session_expire: 21600 },
  reseller_login_register: { account_login: true, email_login: true, email_register: false, email_retrieve: true, session_expire: 21600 },
  admin_login: { account_login: true, email_login: true, email_register: false, email_retrieve: true, session_expire: 21600 },
  email: { open: false, host: '', port: 465, user_name: '', password: '', from_name: '' },
  base: { err_retry: 3, short_timeout: 300, long_timeout: 600, model_key_err_disable: 100_000 },
  log: { open: true, chat_records: ['prompt', 'completion'], chat_reserve: 90 },
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
};
export type SysConfigSection = keyof SysConfig;
