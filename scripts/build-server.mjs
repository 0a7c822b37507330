// Bundles the server's TypeScript (and the core package it imports) into one ES module; npm
// dependencies stay external and load from node_modules.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function buildServer(outfile = path.join(root, 'packages/server/dist/main.mjs')) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'packages/server/package.json'), 'utf8'));
  const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@fastgate/'));
  await build({
    entryPoints: [path.join(root, 'packages/server/src/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    external,
    logLevel: 'warning',
    // import.meta.url of the bundle sits in packages/server/dist, like src: config.ts resolves ../../web/dist from it.
  });
  // esbuild escapes strings but keeps comments and regex literals as written. V8 holds a source with a single
  // character past ASCII as UTF-16, twice its size, for the life of the process (~0.8 MB here): escape them
  // all (valid in comments, regexes and identifiers alike; only those few lines' source-map columns shift).
  const text = fs.readFileSync(outfile, 'utf8');
  if (/\\[^\0-\x7f]/.test(text)) throw new Error(`${outfile}: a backslash before a non-ASCII character; escaping it would change its meaning`);
  fs.writeFileSync(outfile, text.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
