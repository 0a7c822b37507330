import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password';
import { createSecrets } from './secrets';

describe('secrets', () => {
  it('round-trips and refuses a tampered ciphertext', () => {
    const s = createSecrets(randomBytes(32));
    const c = s.encrypt('sk-secret');
    expect(c).not.toContain('sk-secret');
    expect(s.decrypt(c)).toBe('sk-secret');
    const tampered = `v1:${Buffer.from(Buffer.from(c.slice(3), 'base64').map((b, i) => (i === 30 ? b ^ 1 : b))).toString('base64')}`;
    expect(() => s.decrypt(tampered)).toThrow();
    expect(() => createSecrets(randomBytes(32)).decrypt(c)).toThrow();
  });
});

describe('password', () => {
  it('verifies the right password only', async () => {
    const h = await hashPassword('Abc123!');
    expect(h).not.toContain('Abc123!');
    expect(await verifyPassword('Abc123!', h)).toBe(true);
    expect(await verifyPassword('abc123!', h)).toBe(false);
  });
});
