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

export interface SysConfig {
  user_login_register: LoginSection;
  reseller_login_register: LoginSection;
  admin_login: LoginSection;
  email: EmailSection;
}

export const SYS_CONFIG_DEFAULTS: SysConfig = {
  user_login_register: { account_login: true, email_login: true, email_register: true, email_retrieve: true, session_expire: 21600 },
  reseller_login_register: { account_login: true, email_login: true, email_register: false, email_retrieve: true, session_expire: 21600 },
  admin_login: { account_login: true, email_login: true, email_register: false, email_retrieve: true, session_expire: 21600 },
  email: { open: false, host: '', port: 465, user_name: '', password: '', from_name: '' },
};
export type SysConfigSection = keyof SysConfig;
