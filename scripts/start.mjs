// `npm start`: (re)builds what is missing or older than its sources — the console (Vite) and the
// server bundle (esbuild) — then runs the server in this process.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildServer } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...p) => path.join(root, ...p);

/** Newest modification time under the given files and folders. */
function newest(...entries) {
  let max = 0;
  const walk = (p) => {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
    else max = Math.max(max, st.mtimeMs);
  };
  entries.forEach(walk);
  return max;
}

const stale = (output, ...sources) => {
  const st = fs.statSync(output, { throwIfNoEntry: false });
  return !st || st.mtimeMs < newest(...sources);
};

if (stale(at('packages/web/dist/index.html'), at('packages/web/src'), at('packages/web/public'), at('packages/web/index.html'), at('packages/core/src'))) {
  console.log('Building the console…');
  const build = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build', '-w', '@fastgate/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const bundle = at('packages/server/dist/main.mjs');
if (stale(bundle, at('packages/server/src'), at('packages/core/src'))) await buildServer(bundle);

await import(pathToFileURL(bundle).href);
