import { describe, expect, it } from 'vitest';
import { newRecoveryCodes, newTotpSecret, recoveryHash, totpCode, totpStep, totpUri } from './totp';

// RFC 6238 appendix B: SHA-1 with the ASCII secret "12345678901234567890" (base32 below); the 6-digit
// codes are the last six digits of the RFC's 8-digit values.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('totp', () => {
  it('matches the RFC 6238 test vectors', () => {
    expect(totpCode(RFC_SECRET, 59_000)).toBe('287082');
    expect(totpCode(RFC_SECRET, 1_111_111_109_000)).toBe('081804');
    expect(totpCode(RFC_SECRET, 1_234_567_890_000)).toBe('005924');
  });

  it('names the time step of a code within one step either side, and nothing else', () => {
    const now = 1_234_567_890_000;
    const step = Math.floor(now / 30_000);
    expect(totpStep(RFC_SECRET, totpCode(RFC_SECRET, now), now)).toBe(step);
    expect(totpStep(RFC_SECRET, totpCode(RFC_SECRET, now - 30_000), now)).toBe(step - 1);
    expect(totpStep(RFC_SECRET, totpCode(RFC_SECRET, now + 30_000), now)).toBe(step + 1);
    expect(totpStep(RFC_SECRET, totpCode(RFC_SECRET, now - 60_000), now)).toBeNull();
    expect(totpStep(RFC_SECRET, 'abcdef', now)).toBeNull();
    expect(totpStep(RFC_SECRET, '1234567', now)).toBeNull();
  });

  it('makes 160-bit secrets, an otpauth URI and recovery codes whose hash ignores case and dashes', () => {
    expect(newTotpSecret()).toMatch(/^[A-Z2-7]{32}$/);
    expect(totpUri(RFC_SECRET, 'Fast Gate', 'admin')).toBe(`otpauth://totp/Fast%20Gate:admin?issuer=Fast%20Gate&secret=${RFC_SECRET}&algorithm=SHA1&digits=6&period=30`);
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    expect(recoveryHash(codes[0]!)).toBe(recoveryHash(` ${codes[0]!.toUpperCase().replace('-', '')} `));
    expect(recoveryHash(codes[0]!)).not.toBe(recoveryHash(codes[1]!));
  });
});
