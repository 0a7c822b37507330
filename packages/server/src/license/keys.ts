// License signatures: Ed25519 (node:crypto) over the canonical JSON of a license's fields.
//
// Trust: with LICENSE_PUBLIC_KEY set, only licenses signed by that vendor key install. Without it, the
// installation trusts its own key pair, generated into DATA_DIR on first use — so an admin can issue
// licenses for this installation in the console (and the tests can sign). That is honest about what it
// is: a self-issued license limits an installation by its own admin's choice, it is not a vendor's
// grant. The console always signs with the DATA_DIR key; with a vendor key configured, those licenses
// do not install here (the vendor's private key never lives in this repository).
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LicenseFields } from '@fastgate/core/entities/license';
import type { Config } from '../config';

const LICENSE_PREFIX_TAG = 'FGL1';
const KEY_FILE = 'license-ed25519.pem';

/** What a license's signature covers: its fields (core entities/license.ts) but the status, with its id and times. */
export type LicensePayload = Omit<LicenseFields, 'expires_at' | 'status'> & {
  id: string;
  /** Epoch ms; 0 = never. */
  expires_at: number;
  issued_at: number;
};

/** Sorted-key JSON: the same fields always give the same bytes. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const cache = new Map<string, KeyObject>();

/** The installation's own private key, created on first use (wx: never overwrite another instance's). */
function localPrivateKey(config: Pick<Config, 'dataDir'>): KeyObject {
  const file = path.join(config.dataDir, KEY_FILE);
  const hit = cache.get(file);
  if (hit) return hit;
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const { privateKey } = generateKeyPairSync('ed25519');
    try {
      fs.writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
    } catch {
      // Another instance wrote it first: use theirs.
    }
  }
  const key = createPrivateKey(fs.readFileSync(file, 'utf8'));
  cache.set(file, key);
  return key;
}

function parsePublicKey(text: string): KeyObject {
  const t = text.trim();
  if (t.startsWith('-----BEGIN')) return createPublicKey(t.replace(/\\n/g, '\n'));
  const raw = /^[0-9a-f]{64}$/i.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (raw.length !== 32) throw new Error('LICENSE_PUBLIC_KEY must be a PEM public key or 32 raw bytes (hex or base64)');
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
}

/** The key licenses must verify against. */
function trustedPublicKey(config: Pick<Config, 'dataDir' | 'licensePublicKey'>): KeyObject {
  if (config.licensePublicKey) return parsePublicKey(config.licensePublicKey);
  return createPublicKey(localPrivateKey(config));
}

/** Signs a payload: the signature (base64url) and the secret key `FGL1.<payload>.<signature>`. */
export function signLicense(config: Pick<Config, 'dataDir'>, payload: LicensePayload): { sign: string; secret_key: string } {
  const body = Buffer.from(canonical(payload), 'utf8');
  const signature = sign(null, body, localPrivateKey(config)).toString('base64url');
  return { sign: signature, secret_key: `${LICENSE_PREFIX_TAG}.${body.toString('base64url')}.${signature}` };
}

export type Decoded = { ok: true; payload: LicensePayload } | { ok: false; reason: 'incomplete' | 'invalid' };

const B64URL = /^[A-Za-z0-9_-]+$/;

function isPayload(p: unknown): p is LicensePayload {
  if (!p || typeof p !== 'object') return false;
  const o = p as Record<string, unknown>;
  const nums = ['type', 'node', 'user_count', 'app_count', 'expires_at', 'issued_at'].every((k) => typeof o[k] === 'number');
  const strs = ['id', 'name', 'email', 'phone', 'remark'].every((k) => typeof o[k] === 'string');
  return nums && strs && typeof o.is_node_visible === 'boolean' && Array.isArray(o.nodes);
}

/**
 * Reads a secret key. Malformed, truncated or undecodable input is "incomplete"; a well-formed key
 * whose signature does not match its payload (any field changed, or another signer) is "invalid".
 */
export function verifyLicense(config: Pick<Config, 'dataDir' | 'licensePublicKey'>, secretKey: string): Decoded {
  const parts = secretKey.replace(/\s+/g, '').split('.');
  if (parts.length !== 3 || parts[0] !== LICENSE_PREFIX_TAG || !B64URL.test(parts[1]!) || !B64URL.test(parts[2]!)) return { ok: false, reason: 'incomplete' };
  const signature = Buffer.from(parts[2]!, 'base64url');
  if (signature.length !== 64) return { ok: false, reason: 'incomplete' };
  const body = Buffer.from(parts[1]!, 'base64url');
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, reason: 'incomplete' };
  }
  if (!isPayload(payload)) return { ok: false, reason: 'incomplete' };
  if (!verify(null, body, trustedPublicKey(config), signature)) return { ok: false, reason: 'invalid' };
  return { ok: true, payload };
}
