// Enums and constants shared by server and web (docs/SPEC.md §4, §9). Import these; never type the numbers.

/** docs/SPEC.md §9: 500000 quota units equal $1. Money is always integer units. */
export const QUOTA_PER_USD = 500_000;

export const ROLES = ['admin', 'reseller', 'user'] as const;
export type Role = (typeof ROLES)[number];
/** The wildcard role of docs/SPEC.md §6: everyone signed in. */
export const ANY_ROLE = '*';
export type RoleOrAny = Role | typeof ANY_ROLE;

/** Login channels are the three roles; the channel sent at login becomes the stored role. */
export type Channel = Role;

/** Record status (docs/SPEC.md §4.2): 1 normal, 2 disabled. */
export const Status = { Normal: 1, Disabled: 2 } as const;
export type StatusValue = (typeof Status)[keyof typeof Status];

/** The token's first letter names its role, as in the original console (docs/ORIGINAL-API.md §4). */
export const TOKEN_ROLE_PREFIX: Record<Role, string> = { user: 'U', reseller: 'R', admin: 'A' };

/** Email code actions (docs/ORIGINAL-API.md §1.9). */
export const EMAIL_CODE_ACTIONS = ['login', 'register', 'forget_password', 'change_email'] as const;
export type EmailCodeAction = (typeof EMAIL_CODE_ACTIONS)[number];
export const SMS_CODE_ACTIONS = ['change_phone'] as const;
export type SmsCodeAction = (typeof SMS_CODE_ACTIONS)[number];

/** Envelope codes the console understands (docs/SPEC.md §8, docs/ORIGINAL-API.md §2.2). */
export const ErrorCode = {
  OK: 0,
  Business: 50,
  Validation: 51,
  NotFound: 65,
  Unauthorized: 401,
  Forbidden: 403,
  Scope: 999,
  License: 9,
  /** Two-factor sign-in is required for the account's role and it has not enrolled yet. */
  TwoFactorSetup: 70,
  /** A fresh second factor is needed first (`POST /auth/step-up`), then the same call again. */
  StepUp: 71,
} as const;
/** Codes that make the console show its session-timeout modal (docs/SPEC.md §8). */
export const SESSION_TIMEOUT_CODES: readonly number[] = [50008, 50012, 50014, 401, 403];

export const LOCALES = ['zh-CN', 'en-US'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-CN';

/** Real-name certification record states (docs/SPEC.md §2.4 user center). */
export const CertStatus = { Passed: 1, Auditing: 2, Withdrawn: 3, Rejected: 4 } as const;

/** docs/SPEC.md §9 toast duration and the code-9 redirect delay. */
export const TOAST_MS = 5000;
export const LICENSE_REDIRECT_MS = 3000;
export const CAPTCHA_COUNTDOWN_S = 60;

/** Upstream protocol families; a corp's code picks one (entities/corp.ts `familyOfCorpCode`). */
export type ProviderFamily = 'openai' | 'azure' | 'anthropic' | 'gemini';
