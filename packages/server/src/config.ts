// Configuration, read from the environment once at start (STYLE: no process.env anywhere else).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL instead of the embedded SQLite file when set. */
  databaseUrl?: string;
  redisUrl?: string;
  adminAccount?: string;
  adminPassword?: string;
  /** 32-byte key (hex or base64) for secrets at rest; generated into dataDir when absent. */
  masterKey?: string;
  /** Built console to serve; absent folder = API only. */
  webDist: string;
  logLevel: string;
  /** Time zone of the wire's "YYYY-MM-DD HH:mm:ss" strings (the original system's Asia/Shanghai). */
  timeZone: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    adminAccount: env.ADMIN_ACCOUNT || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    masterKey: env.MASTER_KEY || undefined,
    webDist: path.resolve(env.WEB_DIST || path.join(here, '../../web/dist')),
    logLevel: env.LOG_LEVEL || 'info',
    timeZone: env.TIME_ZONE || 'Asia/Shanghai',
  };
}
