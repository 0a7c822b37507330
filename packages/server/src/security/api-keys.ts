// Provider keys and app keys at rest: encrypted for use, hashed for look-up, masked for lists.
import { maskKey } from '@fastgate/core/key-mask';
import { randomBytes } from 'node:crypto';
import type { Secrets } from './secrets';
import { sha256 } from './tokens';

export interface SealedKey {
  key_cipher: string;
  key_hash: string;
  key_mask: string;
}

export function hashKey(key: string): string {
  return sha256(key);
}

export function sealKey(secrets: Secrets, key: string): SealedKey {
  return { key_cipher: secrets.encrypt(key), key_hash: hashKey(key), key_mask: maskKey(key) };
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new app key: the configured prefix (default `sk-FastAPI`) and random letters, 51 characters in all. */
export function generateAppKey(prefix = 'sk-FastAPI'): string {
  const bytes = randomBytes(64);
  let body = '';
  for (let i = 0; body.length < 51 - prefix.length; i++) {
    const b = bytes[i % bytes.length]!;
    if (b < 248) body += LETTERS[b % 62];
    else bytes[i % bytes.length] = randomBytes(1)[0]!;
  }
  return prefix + body;
}
