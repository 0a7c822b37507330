import { describe, expect, it } from 'vitest';
import { maskKey } from '@fastgate/core/key-mask';
import { isSecretName, MASK, redact } from './redact';

describe('redact', () => {
  it('tells secrets by their names', () => {
    for (const n of ['password', 'password_hash', 'key_cipher', 'key_hash', 'totp_secret', 'apiKey', 'api-key', 'secret_key', 'access_token', 'recovery_codes', 'id_number', 'key', 'keys']) expect(isSecretName(n), n).toBe(true);
    for (const n of ['key_mask', 'password_set', 'key_ids', 'key_count', 'max_tokens', 'prompt_tokens', 'session_expire', 'name', 'code', 'is_agents_only']) expect(isSecretName(n), n).toBe(false);
  });

  it('masks deeply, JSON text included, keeping key masks, flags and empty values', () => {
    const out = redact({
      name: 'a',
      password: 'p@ss',
      password_hash: '',
      key: 'sk-one-aaaaaaaaaa1111\nsk-two-bbbbbbbbbb2222',
      keys: ['sk-three-cccccccc3333'],
      is_never_disable_key: true,
      value: JSON.stringify({ host: 'smtp', password: 'v1:cipher' }),
      nested: [{ totp_secret: 'JBSWY3DP', code: '123456', corp: { code: 'OpenAI' } }],
    });
    expect(out).toEqual({
      name: 'a',
      password: MASK,
      password_hash: '',
      key: `${maskKey('sk-one-aaaaaaaaaa1111')}\n${maskKey('sk-two-bbbbbbbbbb2222')}`,
      keys: [maskKey('sk-three-cccccccc3333')],
      is_never_disable_key: true,
      value: { host: 'smtp', password: MASK },
      nested: [{ totp_secret: MASK, code: MASK, corp: { code: 'OpenAI' } }],
    });
    expect(redact('[not json')).toBe('[not json');
  });

  it('masks recovery codes like one-time codes', () => {
    expect(redact({ code: 'k3f9q-7xw2m' })).toEqual({ code: MASK });
    expect(redact({ code: 'K3F9Q7XW2M' })).toEqual({ code: MASK });
    expect(redact({ code: 'azure-openai' })).toEqual({ code: 'azure-openai' });
  });

  it('records uploaded bytes by their size (not walked index by index)', () => {
    expect(redact({ file: { filename: 'logo.png', data: Buffer.alloc(2 * 1024 * 1024) } })).toEqual({ file: { filename: 'logo.png', data: { bytes: 2 * 1024 * 1024 } } });
  });
});
