// Sign-in, registration and code payloads (docs/ORIGINAL-API.md §4, §1.9).
import { z } from 'zod';
import { EMAIL_CODE_ACTIONS, ROLES, SMS_CODE_ACTIONS } from '../constants';
import { codeField, domainField, emailField, passwordField, phoneField } from './fields';

/** A login channel is one of the roles. */
const channelSchema = z.enum(ROLES);
const TERMINALS = ['web', 'h5', 'ios', 'windows', 'mac'] as const;

export const loginSchema = z.object({
  /** Account or email (method account); email (method code). */
  account: z.string().trim().min(1).max(100),
  password: z.string().max(64).optional(),
  code: z.string().trim().max(6).optional(),
  channel: channelSchema,
  method: z.enum(['account', 'code']).default('account'),
  terminal: z.enum(TERMINALS).default('web'),
  domain: domainField,
});
export type LoginInput = z.infer<typeof loginSchema>;

export interface LoginResult {
  type: 'Bearer';
  token: string;
  /** Seconds until the session ends. */
  expires_in: number;
}

export const registerSchema = z.object({
  account: emailField,
  password: passwordField,
  code: codeField,
  channel: z.enum(['user', 'reseller']),
  terminal: z.enum(TERMINALS).default('web'),
  domain: domainField,
});

export const forgetSchema = z.object({
  account: emailField,
  password: passwordField,
  code: codeField,
  channel: channelSchema,
  terminal: z.enum(TERMINALS).default('web'),
  domain: domainField,
});

export const emailCodeSchema = z.object({
  email: emailField,
  action: z.enum(EMAIL_CODE_ACTIONS),
  channel: channelSchema.default('user'),
  domain: domainField,
});

export const smsCodeSchema = z.object({
  phone: phoneField,
  action: z.enum(SMS_CODE_ACTIONS),
  channel: channelSchema.default('user'),
  domain: domainField,
});

/** Which sign-in options each login screen shows (`/open/sys/config`). */
export interface LoginOptions {
  account_login: boolean;
  email_login: boolean;
  email_register?: boolean;
  email_retrieve: boolean;
}
export interface OpenSysConfig {
  user_login_register: LoginOptions;
  reseller_login_register: LoginOptions;
  admin_login: LoginOptions;
}
