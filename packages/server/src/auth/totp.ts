// TOTP (RFC 6238) on the otpauth library: SHA-1, 6 digits, 30 s — what every authenticator app reads
// from a QR code. Pure: the callers keep the secret and the last accepted step.
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { sha256 } from '../security/tokens';

const TOTP_PERIOD_S = 30;
/** Codes of the step before and after are accepted too: phone clocks drift and people type slowly. */
const WINDOW = 1;

const totp = (secret: string, label = '', issuer = '') =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_S, label, issuer });

/** A new random secret (160 bits, the RFC's recommended size), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app scans. */
export function totpUri(secret: string, issuer: string, account: string): string {
  return totp(secret, account, issuer).toString();
}

/** The time step `code` belongs to (within the window around `now`), or null when it matches none. */
export function totpStep(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret).validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD_S) + delta;
}

/** The code of the step containing `now` (tests, and nothing else, need to make one). */
export function totpCode(secret: string, now = Date.now()): string {
  return totp(secret).generate({ timestamp: now });
}

/** Ten recovery codes like `k3f9q-7xw2m` (50 bits each: guessing one within the lockout is hopeless). */
export function newRecoveryCodes(n = 10): string[] {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  return Array.from({ length: n }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** What is stored for a recovery code: case, spaces and dashes do not matter when typed. */
export function recoveryHash(code: string): string {
  return sha256(`recovery:${code.toLowerCase().replace(/[\s-]/g, '')}`);
}
