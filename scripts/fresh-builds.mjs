// @ts-check
// Rebuilds what is missing or older than its sources — the console (Vite) and the server bundle
// (esbuild) — for `npm start`, `npm run bench` and `npm run demo` alike.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, bundleFiles } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (/** @type {string[]} */ ...p) => path.join(root, ...p);
export const BUNDLE = at('packages/server/dist/main.mjs');

/** Newest modification time under the given files and folders. */
function newest(/** @type {string[]} */ ...entries) {
  let max = 0;
  /** @param {string} p */
  const walk = (p) => {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
    else max = Math.max(max, st.mtimeMs);
  };
  entries.forEach(walk);
  return max;
}

/** Whether any of `outputs` is missing or older than the newest of `sources` (walked once). */
const stale = (/** @type {string[]} */ outputs, /** @type {string[]} */ ...sources) => {
  const times = outputs.map((o) => fs.statSync(o, { throwIfNoEntry: false })?.mtimeMs);
  return times.some((t) => t === undefined) || Math.min(.../** @type {number[]} */ (times)) < newest(...sources);
};

/** Builds the console when stale; throws when the build fails. */
export function ensureConsole() {
  if (!stale([at('packages/web/dist/index.html')], at('packages/web/src'), at('packages/web/public'), at('packages/web/index.html'), at('packages/core/src'))) return;
  console.log('Building the console…');
  const build = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build', '-w', '@fastgate/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`building the console failed (exit ${build.status})`);
}

/** Bundles the server when stale. */
export async function ensureBundle() {
  if (!stale(bundleFiles(path.dirname(BUNDLE)), at('packages/server/src'), at('packages/core/src'))) return;
  console.log('Building the server bundle…');
  await buildServer(path.dirname(BUNDLE));
}
