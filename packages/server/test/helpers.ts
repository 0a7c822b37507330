// Test harness: the real app on a real port, over real HTTP, on SQLite or a fresh PostgreSQL database.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { QuotaType } from '@fastgate/core/entities/user';
import { buildApp } from '../src/app';
import { moveQuota, publishUsers } from '../src/billing/deals';
import type { AccountRef } from '../src/billing/ledger-types';
import { verifyLedger, type LedgerReport } from '../src/billing/ledger-verify';
import { readConfig, type Config } from '../src/config';
import { setSysSection } from '../src/settings/sys-config';

export const dialects = ['sqlite', 'postgres'] as const;
export type TestDialect = (typeof dialects)[number];

const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export async function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `fg_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface TestServer {
  url: string;
  app: Awaited<ReturnType<typeof buildApp>>;
  logs: string[];
  adminPassword: string;
  /** Closes the app (its last charges and logs written, jobs stopped) and starts a new one on the same database, data dir and port. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export const ADMIN_PASSWORD = 'Admin#12345';
export const NO_SIGN_IN_LIMITS = { ip_per_minute: 0, ip_per_day: 0, account_per_minute: 0, code_ip_per_minute: 0, code_ip_per_day: 0 };

export async function startServer(dialect: TestDialect, env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fg-test-'));
  const db = dialect === 'postgres' ? await freshPostgres() : undefined;
  const config: Config = readConfig({ DATA_DIR: dataDir, ADMIN_ACCOUNT: 'admin', ADMIN_PASSWORD, WEB_DIST: path.join(dataDir, 'no-web'), LOG_LEVEL: 'info', ...(db ? { DATABASE_URL: db.url } : {}), ...env });
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const app = await buildApp(config, { logger: { level: 'info', stream } });
  // Every suite signs in and asks codes from 127.0.0.1 far faster than a person: the sign-in limits are
  // off here, and security-sign-in.test.ts tests them with their defaults.
  await setSysSection(app.ctx.db, 'sign_in_limits', NO_SIGN_IN_LIMITS);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const server: TestServer = {
    url: `http://127.0.0.1:${port}`,
    app,
    logs,
    adminPassword: ADMIN_PASSWORD,
    async restart() {
      await server.app.close();
      server.app = await buildApp(config, { logger: { level: 'info', stream } });
      await server.app.listen({ port, host: '127.0.0.1' });
    },
    async close() {
      await server.app.close();
      await db?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

export interface Reply<T = any> {
  status: number;
  body: { code: number; message: string; data: T };
}

/** An HTTP client like the console: keeps the XSRF cookie and echoes it in the header. */
export class Client {
  token = '';
  private xsrf = '';
  constructor(readonly base: string, public lang = 'zh-CN') {}

  async raw(method: string, url: string, body?: string, headers: Record<string, string> = {}): Promise<Response> {
    const res = await fetch(this.base + url, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(this.xsrf ? { cookie: `XSRF-TOKEN=${this.xsrf}`, 'x-xsrf-token': this.xsrf } : {}),
        'accept-language': this.lang,
        ...headers,
      },
      body,
    });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('XSRF-TOKEN='));
    if (cookie) this.xsrf = cookie.split(';')[0]!.split('=')[1]!;
    return res;
  }

  async post<T = any>(url: string, body: unknown = {}): Promise<Reply<T>> {
    if (!this.xsrf) await this.raw('GET', '/health');
    const res = await this.raw('POST', url, JSON.stringify(body));
    return { status: res.status, body: (await res.json()) as Reply<T>['body'] };
  }

  async get<T = any>(url: string, query: Record<string, string | number> = {}): Promise<Reply<T>> {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)] as [string, string])).toString();
    const res = await this.raw('GET', qs ? `${url}?${qs}` : url);
    return { status: res.status, body: (await res.json()) as Reply<T>['body'] };
  }

  async login(channel: 'admin' | 'reseller' | 'user', account: string, password: string): Promise<string> {
    const r = await this.post('/api/v1/auth/login', { account, password, channel, method: 'account' });
    if (r.body.code !== 0) throw new Error(`login failed: ${r.body.message}`);
    this.token = r.body.data.token;
    return this.token;
  }
}

/** A real SMTP server that keeps what it receives. */
export async function startSmtp(): Promise<{ port: number; mails: { to: string; text: string }[]; codeFor(to: string): Promise<string>; close(): Promise<void> }> {
  const mails: { to: string; text: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        const [head = '', body = ''] = raw.split('\r\n\r\n');
        const text = /content-transfer-encoding: base64/i.test(head) ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : body;
        for (const rcpt of session.envelope.rcptTo) mails.push({ to: rcpt.address.toLowerCase(), text });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    mails,
    async codeFor(to) {
      for (let i = 0; i < 50; i++) {
        const mail = [...mails].reverse().find((m) => m.to === to.toLowerCase());
        const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
        if (code) return code;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no code mailed to ${to}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A signed-in client for a new account of `role` (accounts are fixtures here; their own API tests live elsewhere). */
export async function signedIn(server: TestServer, role: 'admin' | 'reseller' | 'user', account: string, opts: { rid?: number } = {}): Promise<Client & { userId: number }> {
  const { createAccount } = await import('../src/auth/accounts');
  const password = 'Passw0rd!';
  const user = await createAccount(server.app.ctx, { role, account, password, email: account.includes('@') ? account : '', rid: opts.rid });
  const client = Object.assign(new Client(server.url), { userId: user.user_id });
  await client.login(role, account, password);
  return client;
}

export async function admin(server: TestServer): Promise<Client> {
  const c = new Client(server.url);
  await c.login('admin', 'admin', server.adminPassword);
  return c;
}

/**
 * Sets an account's balance the way money moves (billing/deals.ts: a gift or a deduction of the
 * difference, with its deal record), so the ledger verifier can account for it. Fixtures use this,
 * never a bare `UPDATE users SET quota`.
 */
export async function setQuota(server: TestServer, userId: number, quota: number): Promise<void> {
  await server.app.gateway.ledger.flush();
  const { db } = server.app.ctx;
  const row = await db.selectFrom('users').select('quota').where('user_id', '=', userId).executeTakeFirstOrThrow();
  const diff = quota - Number(row.quota);
  if (diff !== 0) await moveQuota(server.app.ctx, [{ userId, quota: Math.abs(diff), type: diff > 0 ? QuotaType.Gift : QuotaType.Deduct, creator: 'test-fixture' }]);
}

/** Where a suite that drives the ledger directly runs: SQLite, PostgreSQL, and PostgreSQL + Redis when TEST_REDIS_URL is set. */
export const ledgerModes: [name: string, dialect: TestDialect, redis: boolean][] = [
  ['SQLite', 'sqlite', false],
  ['PostgreSQL', 'postgres', false],
  ...(process.env.TEST_REDIS_URL ? ([['PostgreSQL + Redis', 'postgres', true]] as [string, TestDialect, boolean][]) : []),
];

/**
 * A server in one of `ledgerModes` (Redis mode under a fresh key prefix, with `redisEnv`) and a user holding
 * `quota`, charged as a limited balance. `close` also removes the prefix's Redis keys.
 */
export async function ledgerUser(dialect: TestDialect, redis: boolean, tag: string, quota: number, redisEnv: Record<string, string> = {}) {
  const prefix = `fgtest:${tag}:${randomBytes(6).toString('hex')}:`;
  const server = await startServer(dialect, redis ? { REDIS_URL: process.env.TEST_REDIS_URL!, REDIS_PREFIX: prefix, ...redisEnv } : {});
  const { userId } = await signedIn(server, 'user', `${tag}-${randomBytes(4).toString('hex')}@example.com`);
  await setQuota(server, userId, quota);
  const account: AccountRef = { kind: 'user', id: userId, limited: true };
  return {
    server,
    prefix,
    userId,
    account,
    async close() {
      const client = server.app.ctx.redis?.client;
      const keys = client ? await client.keys(`${prefix}*`) : [];
      if (keys.length) await client!.del(...keys);
      await server.close();
    },
  };
}

/** The ledger verifier's report (billing/ledger-verify.ts) once this instance wrote what its ledger holds. */
export async function ledgerReport(server: TestServer): Promise<LedgerReport> {
  await server.app.gateway.ledger.flush();
  return verifyLedger(server.app.ctx.db, server.app.ctx.dialect);
}

/**
 * Holds `server`'s ledger flushes until the returned function runs. In Redis mode its store flushes at every
 * maintenance tick (lease / 3) and a flush takes the whole journal: also what a test's second, "dying" store
 * just recorded, before that store's own take().
 */
export function holdFlushes(server: TestServer): () => void {
  const { ledger } = server.app.gateway;
  // An own property over the class's method: the store's tick calls `this.flush()`.
  ledger.flush = () => Promise.resolve();
  return () => void Reflect.deleteProperty(ledger, 'flush');
}

/** Ends a money suite: every balance and used quota adds up to the deal records and the charges. */
export async function expectNoDrift(server: TestServer): Promise<void> {
  // Imported here: e2e/serve.ts imports this module outside vitest.
  const { expect } = await import('vitest');
  const report = await ledgerReport(server);
  expect(report.drifts, JSON.stringify(report.notes)).toEqual([]);
}

/** A reseller's floor (basis points; issue 13: default 10000 = list price) for fixtures that price its groups below list. */
export async function setFloor(server: TestServer, resellerId: number, floorBp: number): Promise<void> {
  await server.app.ctx.db.updateTable('users').set({ floor_bp: floorBp }).where('user_id', '=', resellerId).where('role', '=', 'reseller').execute();
  await publishUsers(server.app.ctx, [resellerId]);
}
