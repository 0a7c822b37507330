// Two-factor sign-in (TOTP, RFC 6238) and step-up: payloads and answers of /auth/login/totp,
// /auth/step-up and /user/two-factor/*.
import { z } from 'zod';
import { domainField, passwordField } from './fields';

/** A 6-digit TOTP code, or a recovery code (`xxxxx-xxxxx`; dashes and spaces are ignored). */
const secondFactorField = z.string().trim().min(6, 'field.second_factor').max(32, 'field.second_factor');
export const totpCodeField = z.string().trim().regex(/^\d{6}$/, 'field.totp_code');

/** The sign-in's second step: the ticket `/auth/login` answered and a code. */
export const loginTotpSchema = z.object({
  ticket: z.string().trim().min(20).max(100),
  code: secondFactorField,
  domain: domainField,
});

/** What `/auth/login` answers instead of a session when the account uses two-factor sign-in. */
export interface TwoFactorChallenge {
  two_factor: true;
  ticket: string;
  /** Seconds the ticket stays valid. */
  expires_in: number;
}

/** Step-up: a fresh TOTP (or recovery) code. */
export const stepUpSchema = z.object({ code: secondFactorField });

export interface StepUpResult {
  /** Seconds the session may perform protected actions without asking again. */
  expires_in: number;
}

export interface TwoFactorStatus {
  enabled: boolean;
  /** Enrolment started (secret issued) but not confirmed yet. */
  pending: boolean;
  /** The system config requires it for this account's role. */
  required: boolean;
  recovery_codes_left: number;
}

export const twoFactorSetupSchema = z.object({ password: passwordField });

export interface TwoFactorSetup {
  /** Base32 secret, for typing into an authenticator by hand. */
  secret: string;
  /** otpauth://totp/… URI (holds the secret), shown as a QR code. */
  totp_uri: string;
}

export const twoFactorConfirmSchema = z.object({ code: totpCodeField });

export interface RecoveryCodes {
  /** Shown once; each works one time in place of a TOTP code. */
  recovery_codes: string[];
}

/** Turning two-factor off, or new recovery codes: the password and a current code (TOTP or recovery). */
export const twoFactorDisableSchema = z.object({ password: passwordField, code: secondFactorField });
