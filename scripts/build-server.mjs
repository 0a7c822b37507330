// Bundles the server's TypeScript, the core package it imports and its npm dependencies into one ES
// module, minified. What V8 holds of a module for the life of the process is mostly its source text and
// what it compiles from it: the dependencies as loaded from node_modules (every file whole, comments and
// all) kept ~7 MB of source strings in the heap; tree-shaken and minified they are about half, and the
// process's peak RSS under load fell ~8 MB (docs/BENCHMARKS.md, eighth pass). Identifiers keep their
// names, so stack traces still name their functions; the linked source map gives the original lines.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Loaded from node_modules at run time: better-sqlite3 is a native addon; pg, ioredis and nodemailer load
 * only when PostgreSQL, Redis or a mail server is configured, and gpt-tokenizer's rank tables (24 MB) only
 * when a call is counted locally, so none of them costs a process that does not use them.
 */
const EXTERNAL = ['better-sqlite3', 'pg', 'ioredis', 'nodemailer', 'gpt-tokenizer'];

const src = path.join(root, 'packages/server/src');
/**
 * The product, and the SQLite writer thread's module (billing/sqlite-writer.ts starts it from beside the
 * product's file). Each is bundled whole: the thread loads only what it uses.
 */
const ENTRIES = { main: path.join(src, 'main.ts'), 'sqlite-writer-thread': path.join(src, 'billing/sqlite-writer-thread.ts') };

/** The files of a build into `outdir`. */
export const bundleFiles = (/** @type {string} */ outdir) => Object.keys(ENTRIES).map((name) => path.join(outdir, `${name}.mjs`));

/** Builds the bundles into `outdir`; the product's is main.mjs. */
export async function buildServer(outdir = path.join(root, 'packages/server/dist')) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'packages/server/package.json'), 'utf8'));
  for (const name of EXTERNAL) if (!pkg.dependencies[name]) throw new Error(`${name} is no dependency of the server any more: update EXTERNAL`);
  await build({
    entryPoints: ENTRIES,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    external: EXTERNAL.flatMap((name) => [name, `${name}/*`]),
    minifyWhitespace: true,
    minifySyntax: true,
    // The CommonJS dependencies call require() for Node's built-ins; an ES module has none of its own.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    logLevel: 'warning',
    // import.meta.url of the bundle sits in packages/server/dist, like src: config.ts resolves ../../web/dist from it.
  });
  // esbuild escapes strings but keeps comments and regex literals as written. V8 holds a source with a single
  // character past ASCII as UTF-16, twice its size, for the life of the process: escape them all (valid in
  // comments, regexes and identifiers alike; only those few lines' source-map columns shift).
  for (const outfile of bundleFiles(outdir)) {
    const text = fs.readFileSync(outfile, 'utf8');
    if (/\\[^\0-\x7f]/.test(text)) throw new Error(`${outfile}: a backslash before a non-ASCII character; escaping it would change its meaning`);
    fs.writeFileSync(outfile, text.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
