// Secrets at rest: AES-256-GCM under a master key from MASTER_KEY or generated into DATA_DIR once.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface Secrets {
  encrypt(plain: string): string;
  decrypt(stored: string): string;
}

function parseKey(text: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (key.length !== 32) throw new Error('MASTER_KEY must be 32 bytes (64 hex characters or base64)');
  return key;
}

export function loadMasterKey(opts: { masterKey?: string; dataDir: string }): Buffer {
  if (opts.masterKey) return parseKey(opts.masterKey);
  const file = path.join(opts.dataDir, 'master.key');
  if (fs.existsSync(file)) return parseKey(fs.readFileSync(file, 'utf8'));
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const key = randomBytes(32);
  // wx: never overwrite a key another instance just wrote.
  try {
    fs.writeFileSync(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
  } catch {
    return parseKey(fs.readFileSync(file, 'utf8'));
  }
  return key;
}

export function createSecrets(key: Buffer): Secrets {
  return {
    encrypt(plain) {
      if (!plain) return '';
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    decrypt(stored) {
      if (!stored) return '';
      if (!stored.startsWith('v1:')) throw new Error('unknown secret format');
      const raw = Buffer.from(stored.slice(3), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
