// Values as the audit log keeps them: every field named like a secret is masked, whatever the table or
// request it came from, so a new secret column is covered by its name alone. Keys keep the mask lists
// already show (core key-mask.ts `maskKey`); every other secret becomes "******" ('' stays '', so
// "set" and "not set" remain visible). JSON text columns (lists, objects, a sys-config section) are
// parsed first so the secrets inside them are masked too.
import { maskKey } from '@fastgate/core/key-mask';

export const MASK = '******';

/** Name segments that mark a secret (`password_hash`, `key_cipher`, `totp_secret`, `api_key`…). */
const SECRET_SEGMENTS = new Set(['password', 'passwd', 'pwd', 'secret', 'secrets', 'token', 'cipher', 'hash', 'key', 'keys', 'otp', 'totp', 'recovery', 'credential', 'credentials', 'salt', 'private', 'captcha']);
/** A last segment that names something about a secret, not the secret (`key_mask`, `password_set`, `key_ids`). */
const SAFE_LAST = new Set(['mask', 'set', 'count', 'id', 'ids', 'prefix', 'only', 'disable', 'enabled', 'expire', 'expires', 'at', 'type', 'name', 'length', 'open', 'required']);
const SECRET_NAMES = new Set(['id_number']);

/** `apiKey`, `api-key`, `API_KEY` → ['api', 'key']. */
const segmentsOf = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);

export function isSecretName(name: string): boolean {
  const segments = segmentsOf(name);
  if (SECRET_NAMES.has(segments.join('_'))) return true;
  if (!segments.some((s) => SECRET_SEGMENTS.has(s))) return false;
  return !SAFE_LAST.has(segments[segments.length - 1]!);
}

/** A two-factor recovery code as typed (auth/totp.ts: `k3f9q-7xw2m`, dash and case optional). */
const RECOVERY_CODE = /^[a-z0-9]{5}[\s-]?[a-z0-9]{5}$/i;

/**
 * A one-time code (a verification, TOTP or recovery code: `code`, `totp_code`) under a name ending in
 * `code`. Codes that are names (a corp's `code`, "OpenAI") stay readable.
 */
const isOneTimeCode = (name: string, value: unknown) =>
  segmentsOf(name).pop() === 'code' && (typeof value === 'string' || typeof value === 'number') && (/^\d{4,10}$/.test(String(value).trim()) || RECOVERY_CODE.test(String(value).trim()));

/** Keys (one per line, like an agent's `key` field) keep their list mask; other secrets are hidden whole. */
function maskValue(name: string, value: unknown): unknown {
  const last = segmentsOf(name).pop();
  const isKey = last === 'key' || last === 'keys';
  if (isKey && Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.map((k: string) => maskKey(k));
  // Flags about a secret (`is_never_disable_key`) stay; anything else under a secret's name is hidden.
  if (typeof value !== 'string') return value === null || value === undefined || typeof value === 'boolean' ? value : MASK;
  if (!value) return value;
  if (isKey) return value.split(/\r?\n/).map((k) => (k.trim() ? maskKey(k.trim()) : k)).join('\n');
  return MASK;
}

/** JSON text holding a list or an object, parsed; anything else as it is. */
function parsedJson(value: string): unknown {
  const head = value.trimStart()[0];
  if (head !== '[' && head !== '{') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** A deep copy of `value` with every secret-named field masked (JSON text parsed on the way). */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 20) return '…';
  if (typeof value === 'string') {
    const parsed = parsedJson(value);
    return parsed === value ? value : redact(parsed, depth + 1);
  }
  // Uploaded bytes (a site image) are recorded by size: walking a Buffer index by index took seconds.
  if (ArrayBuffer.isView(value)) return { bytes: value.byteLength };
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = isSecretName(k) || isOneTimeCode(k, v) ? maskValue(k, v) : redact(v, depth + 1);
    return out;
  }
  return value;
}
