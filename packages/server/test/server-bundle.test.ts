// The server bundles `npm start` runs (scripts/build-server.mjs: the product and its SQLite writer
// thread): ASCII only, so V8 keeps their source one byte a character, and still valid JavaScript after the
// escaping that makes it so.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fg-bundle-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('is ASCII only, with the sources’ comments and regexes escaped, and parses', async () => {
  const build = `(await import(${JSON.stringify(pathToFileURL(path.join(ROOT, 'scripts/build-server.mjs')).href)})).buildServer(${JSON.stringify(dir)})`;
  await run(process.execPath, ['--input-type=module', '-e', `await ${build}`], { cwd: ROOT });
  const main = fs.readFileSync(path.join(dir, 'main.mjs'), 'utf8');
  const thread = fs.readFileSync(path.join(dir, 'sqlite-writer-thread.mjs'), 'utf8');
  for (const text of [main, thread]) expect(text.match(/[^\0-\x7f]/g)).toBeNull();
  expect(main.length).toBeGreaterThan(1_000_000);
  // A regex literal of the sources with a non-ASCII character (gateway/retry-after.ts: Go duration units): escaped, not dropped.
  expect(main).toContain('us|\\u00b5s|ns');
  // The SQLite writer thread's module holds what the thread runs (kysely, the statistics), not the
  // product's schemas: zod alone would be ~0.6 MB more source in the thread's heap.
  expect(thread.length).toBeGreaterThan(100_000);
  expect(thread.length).toBeLessThan(400_000);
  expect(thread).not.toContain('ZodObject');
  for (const file of ['main.mjs', 'sqlite-writer-thread.mjs']) await run(process.execPath, ['--check', path.join(dir, file)]);
});

it('runs under the Node flags `npm start` gives it (package.json), every one of them known to this Node', async () => {
  // As the benchmark reads them (bench/harness.mjs startFlags, their one parser).
  const harness = pathToFileURL(path.join(ROOT, 'bench/harness.mjs')).href;
  const listed = await run(process.execPath, ['--input-type=module', '-e', `console.log(JSON.stringify((await import(${JSON.stringify(harness)})).startFlags()))`], { cwd: ROOT });
  const flags: string[] = JSON.parse(listed.stdout);
  expect(flags).toContain('--no-allocation-site-pretenuring');
  // A flag V8 does not know stops Node before any script with "bad option".
  const { stdout } = await run(process.execPath, [...flags, '-p', 'process.execArgv.filter((a) => a.startsWith("--")).join(" ")']);
  expect(stdout.trim()).toBe(flags.join(' '));
});
