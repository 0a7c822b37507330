// Configuration, read from the environment once at start (no process.env anywhere else).
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL instead of the embedded SQLite file when set. */
  databaseUrl?: string;
  /** Redis mode (bus, limits, balances, sessions shared by every instance) when set. */
  redisUrl?: string;
  /** Prefix of every Redis key and channel (REDIS_PREFIX), so deployments or test runs can share one Redis. */
  redisPrefix: string;
  /** Redis mode: reservations and ledger batches of an instance that died are released after this (REDIS_LEASE_S). */
  redisLeaseMs: number;
  /** Redis mode: how often each instance checks its gateway snapshot against the database (SNAPSHOT_RECONCILE_S). */
  reconcileMs: number;
  adminAccount?: string;
  adminPassword?: string;
  /** 32-byte key (hex or base64) for secrets at rest; generated into dataDir when absent. */
  masterKey?: string;
  /** Built console to serve; absent folder = API only. */
  webDist: string;
  logLevel: string;
  /** Time zone of the wire's "YYYY-MM-DD HH:mm:ss" strings (the original system's Asia/Shanghai). */
  timeZone: string;
  /** The license vendor's Ed25519 public key (PEM, or the raw 32 bytes as hex/base64); absent = trust this installation's own key in DATA_DIR. */
  licensePublicKey?: string;
  /** Largest gateway request body (JSON) and upload (audio transcription), in bytes; larger gets 413. */
  gatewayBodyLimit: number;
  gatewayUploadLimit: number;
  /** Bearer token that may read GET /metrics from any address (without it: loopback and private addresses only). */
  metricsToken?: string;
  /** On SIGTERM/SIGINT, how long in-flight requests and streams may take to finish before they are cut (ms). */
  shutdownTimeoutMs: number;
  /**
   * Which peers may tell the client's address in X-Forwarded-For (TRUST_PROXY), as Fastify's trustProxy
   * takes it: true (everyone), false (no one), a hop count, or addresses, CIDRs and proxy-addr's keywords
   * (loopback, linklocal, uniquelocal), comma-separated. request.ip is then the one client address used
   * for IP lists, call logs and sign-in records.
   */
  trustProxy: boolean | number | string;
  /**
   * Private addresses and CIDRs a reseller's mail server may still use (MAIL_PRIVATE_ALLOW, comma-separated),
   * e.g. the operator's own relay on the internal network; every other loopback, private or link-local
   * address is refused for resellers' mail servers (security/public-host.ts).
   */
  mailPrivateAllow: string[];
}

const here = path.dirname(fileURLToPath(import.meta.url));

function megabytes(value: string | undefined, fallback: number): number {
  const mb = value ? Number(value) : fallback;
  if (!Number.isFinite(mb) || mb <= 0) throw new Error(`a *_LIMIT_MB setting must be a positive number, got ${value}`);
  return Math.round(mb * 1024 * 1024);
}

function seconds(value: string | undefined, fallback: number): number {
  const s = value ? Number(value) : fallback;
  if (!Number.isFinite(s) || s < 0) throw new Error(`a *_S setting must be a number of seconds, got ${value}`);
  return s;
}

const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** A proxy list entry: a keyword, an address, or an address with a prefix length or a netmask. */
function proxyEntry(entry: string): boolean {
  if (PROXY_KEYWORDS.has(entry)) return true;
  const [addr = '', range, ...rest] = entry.split('/');
  const family = net.isIP(addr);
  if (!family || rest.length) return false;
  if (range === undefined) return true;
  if (/^\d+$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && net.isIPv4(range);
}

/** MAIL_PRIVATE_ALLOW: addresses or address/prefix-length CIDRs. */
function addressList(value: string | undefined): string[] {
  const entries = (value ?? '').split(',').map((e) => e.trim()).filter(Boolean);
  for (const entry of entries) {
    const [addr = '', prefix, ...rest] = entry.split('/');
    const family = net.isIP(addr);
    const ok = family && !rest.length && (prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128)));
    if (!ok) throw new Error(`MAIL_PRIVATE_ALLOW must list addresses or CIDRs (10.0.0.5, 10.1.0.0/16), got ${entry}`);
  }
  return entries;
}

function trustProxy(value: string | undefined): boolean | number | string {
  // Default: a proxy on this host or the private network may forward; a peer on the internet cannot claim another address.
  const v = value?.trim() || 'loopback,linklocal,uniquelocal';
  if (v === 'true' || v === 'false') return v === 'true';
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v.split(',').map((e) => e.trim()).filter(Boolean);
  const bad = entries.find((e) => !proxyEntry(e));
  if (bad !== undefined || !entries.length) throw new Error(`TRUST_PROXY must be true, false, a hop count or a list of addresses, CIDRs, loopback, linklocal, uniquelocal; got ${bad ?? v}`);
  return entries.join(',');
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX || 'fg:',
    redisLeaseMs: Math.max(0.5, seconds(env.REDIS_LEASE_S, 30)) * 1000,
    reconcileMs: Math.max(1, seconds(env.SNAPSHOT_RECONCILE_S, 30)) * 1000,
    adminAccount: env.ADMIN_ACCOUNT || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    masterKey: env.MASTER_KEY || undefined,
    webDist: path.resolve(env.WEB_DIST || path.join(here, '../../web/dist')),
    logLevel: env.LOG_LEVEL || 'info',
    timeZone: env.TIME_ZONE || 'Asia/Shanghai',
    licensePublicKey: env.LICENSE_PUBLIC_KEY || undefined,
    gatewayBodyLimit: megabytes(env.GATEWAY_BODY_LIMIT_MB, 10),
    gatewayUploadLimit: megabytes(env.GATEWAY_UPLOAD_LIMIT_MB, 26),
    metricsToken: env.METRICS_TOKEN || undefined,
    shutdownTimeoutMs: seconds(env.SHUTDOWN_TIMEOUT_S, 30) * 1000,
    trustProxy: trustProxy(env.TRUST_PROXY),
    mailPrivateAllow: addressList(env.MAIL_PRIVATE_ALLOW),
  };
}
