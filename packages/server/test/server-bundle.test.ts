// The server bundle `npm start` runs (scripts/build-server.mjs): ASCII only, so V8 keeps its source one
// byte a character, and still valid JavaScript after the escaping that makes it so.
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
  const outfile = path.join(dir, 'main.mjs');
  const build = `(await import(${JSON.stringify(pathToFileURL(path.join(ROOT, 'scripts/build-server.mjs')).href)})).buildServer(${JSON.stringify(outfile)})`;
  await run(process.execPath, ['--input-type=module', '-e', `await ${build}`], { cwd: ROOT });
  const text = fs.readFileSync(outfile, 'utf8');
  expect(text.length).toBeGreaterThan(100_000);
  expect(text.match(/[^\0-\x7f]/g)).toBeNull();
  // A regex literal of the sources with a non-ASCII character (gateway/retry-after.ts: Go duration units): escaped, not dropped.
  expect(text).toContain('us|\\u00b5s|ns');
  await run(process.execPath, ['--check', outfile]);
});
