// Admission (docs/ORIGINAL-GATEWAY.md §1.2, in order): the app key, its app, its user and reseller, IP lists,
// expiry. Every check reads the snapshot; a failure is an OpenAI-shaped error with its HTTP status.
// Quota is not checked here: the ledger's reservation is the quota check (and the one that cannot race).
import { ipAllowed } from '@fastgate/core/ip-list';
import { Status } from '@fastgate/core/constants';
import { QuotaExpiresRule } from '@fastgate/core/entities/app-key';
import type { FastifyRequest } from 'fastify';
import { hashKey } from '../security/api-keys';
import { GatewayError } from './errors';
import type { SnapApp, SnapAppKey, Snapshot, SnapUser, SnapVip } from './snapshot';
import { vipLevelOf } from './vip';

export interface Caller {
  appKey: SnapAppKey;
  app: SnapApp;
  user: SnapUser;
  reseller?: SnapUser;
  /** The user's current VIP level: its limits, discount and the groups it grants. */
  vip?: SnapVip;
  /** The client's address (proxy-aware) and the socket's. */
  ip: string;
  remoteIp: string;
}

/** First non-empty of: Authorization Bearer, x-api-key (Anthropic SDK), api-key (Azure SDK), x-goog-api-key. */
function presentedKey(request: FastifyRequest): string {
  const h = request.headers;
  const auth = h.authorization ?? '';
  // The scheme is case-insensitive; only its seven letters are lowered, not the whole header.
  if (auth.startsWith('Bearer ') || auth.slice(0, 7).toLowerCase() === 'bearer ') return auth.slice(7).trim();
  for (const name of ['x-api-key', 'api-key', 'x-goog-api-key']) {
    const v = h[name];
    if (typeof v === 'string' && v.trim()) return v.trim();
  }
  return '';
}

/** Whether two strings are the same, in a time that depends on their lengths only. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The hash of the key last presented on each client connection: a kept-alive client sends the same key
 * call after call, and hashing it was ~1 % of a call's CPU. Held no longer than the connection, and
 * compared in constant time: behind a proxy one connection carries many clients' calls, and how long a
 * comparison took must not tell one client how much of another's key it guessed.
 */
const lastKeys = new WeakMap<object, { key: string; hash: string }>();

function keyHash(request: FastifyRequest, key: string): string {
  const last = lastKeys.get(request.raw.socket);
  if (last && sameText(last.key, key)) return last.hash;
  const hash = hashKey(key);
  lastKeys.set(request.raw.socket, { key, hash });
  return hash;
}

const expired = (at: number | null | undefined, now: number) => !!at && at > 0 && at <= now;

/**
 * A blacklist hit or a whitelist miss on the client's address: request.ip, the peer itself unless it is
 * a proxy TRUST_PROXY trusts (config.ts), so a client cannot claim another address. The original (docs/ORIGINAL-GATEWAY.md §1.2)
 * also let the socket's address admit a caller, which behind a proxy lets every client past a blacklist;
 * and, unlike the original, loopback is not exempt: the lists mean what they say.
 */
function ipRefused(ip: string, whitelist: readonly string[], blacklist: readonly string[]): boolean {
  if (whitelist.length === 0 && blacklist.length === 0) return false;
  return !ipAllowed(ip, whitelist, blacklist);
}

export function admit(snapshot: Snapshot, request: FastifyRequest, now = Date.now()): Caller {
  const key = presentedKey(request);
  if (!key) throw new GatewayError(401, 'missing_api_key', 'You did not provide an API key. Send it as "Authorization: Bearer <key>".');
  const appKey = snapshot.appKeys.get(keyHash(request, key));
  if (!appKey) throw new GatewayError(401, 'invalid_api_key', 'Incorrect API key provided.');
  if (appKey.status !== Status.Normal) throw new GatewayError(403, 'api_key_disabled', 'This API key is disabled.');

  const ip = request.ip;
  // The peer (the proxy, behind one): kept in the call log.
  const remoteIp = request.socket.remoteAddress ?? ip;
  if (ipRefused(ip, appKey.ip_whitelist, appKey.ip_blacklist)) throw new GatewayError(403, 'ip_forbidden', `IP ${ip} is not allowed to use this key.`);
  // Rule 2 keys start their clock at the first call; until then quota_expires_at is empty (console/app-keys.ts).
  if (appKey.quota_expires_rule === QuotaExpiresRule.Fixed || appKey.first_used_at) {
    if (expired(appKey.quota_expires_at, now)) throw new GatewayError(403, 'api_key_expired', 'This API key has expired.');
  }

  const user = snapshot.users.get(appKey.user_id);
  if (!user) throw new GatewayError(401, 'invalid_user', 'The owner of this API key no longer exists.');
  if (user.status !== Status.Normal) throw new GatewayError(403, 'user_disabled', 'The account of this API key is disabled.');
  // Account-wide lists (wildcards allowed) apply to every key of every app of the account.
  if (ipRefused(ip, user.ip_whitelist, user.ip_blacklist)) throw new GatewayError(403, 'ip_forbidden', `IP ${ip} is not allowed for this account.`);
  if (expired(user.quota_expires_at, now)) throw new GatewayError(429, 'account_quota_expired', 'The quota of this account has expired.');
  let reseller: SnapUser | undefined;
  if (user.rid > 0) {
    reseller = snapshot.users.get(user.rid);
    if (!reseller || reseller.status !== Status.Normal) throw new GatewayError(403, 'reseller_disabled', 'The reseller of this account is disabled.');
    if (expired(reseller.quota_expires_at, now)) throw new GatewayError(429, 'reseller_quota_expired', 'The quota of the reseller of this account has expired.');
  }

  const app = snapshot.apps.get(appKey.app_id);
  if (!app || app.user_id !== user.user_id) throw new GatewayError(401, 'invalid_app', 'The app of this API key no longer exists.');
  if (app.status !== Status.Normal) throw new GatewayError(403, 'app_disabled', 'The app of this API key is disabled.');
  if (ipRefused(ip, app.ip_whitelist, app.ip_blacklist)) throw new GatewayError(403, 'ip_forbidden', `IP ${ip} is not allowed to use this app.`);
  if (expired(app.quota_expires_at, now)) throw new GatewayError(403, 'app_expired', 'The app of this API key has expired.');
  return { appKey, app, user, reseller, vip: vipLevelOf(snapshot, user, now), ip, remoteIp };
}
