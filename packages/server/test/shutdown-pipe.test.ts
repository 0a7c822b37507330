// A shutdown that always finishes: the real entry point (main.ts, as operations.test.ts runs it) with its
// output (stdout and stderr, as `2>&1 | tee` has it) piped to a reader that exits: a supervisor or a
// `| tee` that died. Either the pipe is closed (every later write meets EPIPE), or its read end lives on
// in a process that never reads (a child the reader left behind) and the pipe fills up. Neither may stop
// the drain or the exit: the stream in flight at SIGTERM still settles, its charge is written, and the
// process exits 0 within a few seconds. And under `npm start`, where npm hands the SIGTERM to the shell it
// ran the script in and that shell dies without passing it on, the server still drains and exits.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { world } from './gateway-fixtures';
import { ADMIN_PASSWORD } from './helpers';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '../../..');

const exitOf = (child: ChildProcess) => new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })));

/**
 * The reader takes the first bytes and exits. `gone`: nothing else holds the pipe's read end. `orphaned`:
 * a child it leaves behind (its pid in `pidFile`) keeps the read end open and never reads.
 */
function reader(kind: 'gone' | 'orphaned', pidFile: string): ChildProcess {
  const leave = `const c = require('node:child_process').spawn('sleep', ['60'], { stdio: ['inherit', 'ignore', 'ignore'], detached: true }); require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); c.unref();`;
  return spawn(process.execPath, ['-e', `${kind === 'orphaned' ? leave : ''} process.stdin.once('data', () => process.exit(0));`], { stdio: ['pipe', 'ignore', 'ignore'] });
}

describe.each([
  ['closed (EPIPE)', 'gone', 18811],
  ['full, its reader gone but its read end still open', 'orphaned', 18812],
] as const)('shutdown with the output piped to a reader that exited: the pipe %s', (_what, kind, port) => {
  it('writes the charge of the stream in flight and exits 0 within a few seconds', async () => {
    const w = await world('sqlite');
    const dataDir = w.server.app.ctx.config.dataDir;
    await w.server.app.close();
    const pidFile = path.join(dataDir, 'orphan.pid');
    const r = reader(kind, pidFile);
    const readerGone = exitOf(r);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: path.join(here, '..'),
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_S: '5', WEB_DIST: path.join(dataDir, 'no-web'), ADMIN_ACCOUNT: 'admin', ADMIN_PASSWORD },
      stdio: ['ignore', r.stdin!, r.stdin!],
    });
    // Only the product holds the pipe's write end now, as a supervisor's child would.
    r.stdin!.destroy();
    const exited = exitOf(child);
    try {
      const base = `http://127.0.0.1:${port}`;
      for (let i = 0; ; i++) {
        if ((await fetch(`${base}/health`).catch(() => undefined))?.ok) break;
        if (i > 150) throw new Error('the server did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await readerGone).code).toBe(0);
      // Log lines enough to fill a pipe (each request logs its path, ~1 KB here) several times over.
      for (let i = 0; i < 400; i++) expect((await fetch(`${base}/api/v1/no-such-route/${'x'.repeat(1000)}`)).status).toBe(404);
      // A stream in flight: its charge is made after the signal, while the drain runs.
      const res = await fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: '[[mock:chunks=6]] [[mock:chunk_delay=100]] drain me' }] }),
      });
      expect(res.status).toBe(200);
      const trace = res.headers.get('x-trace-id')!;
      const body = res.text();
      await new Promise((r) => setTimeout(r, 150));
      const signalled = Date.now();
      child.kill('SIGTERM');
      expect(await body).toContain('data: [DONE]');
      const { code, signal, at } = await Promise.race([exited, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the process did not exit within 10 s of SIGTERM')), 10_000))]);
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(at - signalled).toBeLessThan(5000);

      const db = new SQLite(path.join(dataDir, 'fastgate.db'), { readonly: true });
      try {
        const row = db.prepare('select status, total_price from call_logs where trace_id = ?').get(trace) as { status: number; total_price: number } | undefined;
        expect(row).toMatchObject({ status: 1 });
        expect(row!.total_price).toBeGreaterThan(0);
        const user = db.prepare('select used_quota from users where user_id = ?').get(w.user.userId) as { used_quota: number };
        expect(user.used_quota).toBe(row!.total_price);
      } finally {
        db.close();
      }
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if (r.exitCode === null) r.kill('SIGKILL');
      if (fs.existsSync(pidFile)) {
        try {
          process.kill(Number(fs.readFileSync(pidFile, 'utf8')), 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      await w.mock.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('shutdown of a server started the way npm start starts it (in sh -c)', () => {
  it('drains and exits once npm passes SIGTERM to its shell and the shell dies of it', async () => {
    const port = 18813;
    const w = await world('sqlite');
    const dataDir = w.server.app.ctx.config.dataDir;
    await w.server.app.close();
    const pidFile = path.join(dataDir, 'server.pid');
    // What scripts/start.mjs does before it imports the server (the bundle there, the sources here).
    const entry = [
      `import fs from 'node:fs';`,
      `fs.writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));`,
      `(await import(${JSON.stringify(path.join(ROOT, 'scripts/stop-with-launcher.mjs'))})).stopWithLauncher();`,
      `await import(${JSON.stringify(path.join(here, '../src/main.ts'))});`,
    ].join(' ');
    const shell = spawn('sh', ['-c', `"${process.execPath}" --import tsx --input-type=module -e "${entry.replaceAll('"', '\\"')}"`], {
      cwd: path.join(here, '..'),
      env: { ...process.env, npm_lifecycle_event: 'start', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_S: '5', WEB_DIST: path.join(dataDir, 'no-web'), ADMIN_ACCOUNT: 'admin', ADMIN_PASSWORD },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    shell.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    shell.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    let pid = 0;
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      const base = `http://127.0.0.1:${port}`;
      for (let i = 0; ; i++) {
        if ((await fetch(`${base}/health`).catch(() => undefined))?.ok) break;
        if (i > 150) throw new Error(`the server did not start:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      pid = Number(fs.readFileSync(pidFile, 'utf8'));
      expect(pid).not.toBe(shell.pid);
      const res = await fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: '[[mock:chunks=6]] [[mock:chunk_delay=100]] drain me' }] }),
      });
      const trace = res.headers.get('x-trace-id')!;
      const body = res.text();
      await new Promise((r) => setTimeout(r, 150));
      // What npm does with the SIGTERM it gets: it passes it to the shell (which dies of it).
      const signalled = Date.now();
      shell.kill('SIGTERM');
      expect(await body).toContain('data: [DONE]');
      while (alive() && Date.now() - signalled < 10_000) await new Promise((r) => setTimeout(r, 50));
      expect(alive()).toBe(false);
      expect(Date.now() - signalled).toBeLessThan(5000);
      expect(out).toContain('shut down cleanly');
      const db = new SQLite(path.join(dataDir, 'fastgate.db'), { readonly: true });
      try {
        expect(db.prepare('select status from call_logs where trace_id = ?').get(trace)).toMatchObject({ status: 1 });
      } finally {
        db.close();
      }
    } finally {
      if (pid && alive()) process.kill(pid, 'SIGKILL');
      if (shell.exitCode === null && shell.signalCode === null) shell.kill('SIGKILL');
      await w.mock.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
