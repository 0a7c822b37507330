// The e2e server: the real app (built console included) on a fresh SQLite data dir, with its mail going
// to a real SMTP server whose received mail the tests read over HTTP (GET /mails).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../packages/server/src/app';
import { readConfig } from '../packages/server/src/config';
// Brings the `app.ctx` decoration's type into this program.
import type {} from '../packages/server/src/context';
import { setSysSection } from '../packages/server/src/settings/sys-config';
import { NO_SIGN_IN_LIMITS, startSmtp } from '../packages/server/test/helpers';
import { startMockProvider } from '../packages/mock-provider/src/server';
import { E2E_ADMIN_PASSWORD, E2E_MAIL_PORT, E2E_MOCK_PORT, E2E_PORT } from './env';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fg-e2e-'));
const smtp = await startSmtp();
// The fake upstream the gateway specs point their agents at (E2E_MOCK_URL).
const mock = await startMockProvider({ port: E2E_MOCK_PORT, host: '127.0.0.1', record: 0 });
const app = await buildApp(readConfig({ ...process.env, DATA_DIR: dataDir, PORT: String(E2E_PORT), ADMIN_ACCOUNT: 'admin', ADMIN_PASSWORD: E2E_ADMIN_PASSWORD, LOG_LEVEL: 'warn' }));
await setSysSection(app.ctx.db, 'email', { open: true, host: '127.0.0.1', port: smtp.port, from_name: 'FastGate e2e' });
// The specs sign in from one address far faster than people do (the limits have API tests of their own).
await setSysSection(app.ctx.db, 'sign_in_limits', NO_SIGN_IN_LIMITS);
await app.listen({ port: E2E_PORT, host: '127.0.0.1' });

http
  .createServer((req, res) => {
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to')?.toLowerCase();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(smtp.mails.filter((m) => !to || m.to === to)));
  })
  .listen(E2E_MAIL_PORT, '127.0.0.1');

const stop = async () => {
  await app.close();
  await smtp.close();
  await mock.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
