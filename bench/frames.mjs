// @ts-check
// Where a frame's code comes from, named alike by the CPU profile (bench/profile.mjs) and the heap census
// (bench/heap.mjs): a file under the repository (the product bundle's frames through its source map), `node:…`,
// or V8's name for native work.
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import * as h from './harness.mjs';

/** The product's bundle, as startProduct picks it (BENCH_BUNDLE: another build, its map beside it). */
export const BUNDLE = process.env.BENCH_BUNDLE ?? h.BUNDLE;

/** @typedef {{ functionName: string, url: string, lineNumber: number, columnNumber: number }} Frame a V8 call frame (0-based line and column) */

/** The bundle's source map (scripts/build-server.mjs writes one), if there is one. */
export function bundleMap() {
  const file = `${BUNDLE}.map`;
  return fs.existsSync(file) ? new SourceMap(JSON.parse(fs.readFileSync(file, 'utf8'))) : undefined;
}

/** Where a frame's code comes from: a file under the repository, `node:…`, or V8's name for native work. */
export function sourceOf(/** @type {Frame} */ f, /** @type {SourceMap | undefined} */ map) {
  const { url } = f;
  if (url.endsWith('/dist/main.mjs') && map) {
    const entry = map.findEntry(f.lineNumber, f.columnNumber);
    const original = 'originalSource' in entry ? entry.originalSource : '';
    // The map's sources are relative to the bundle's folder (`../src/…`, `../../core/src/…`, `../../../node_modules/…`).
    return original ? path.relative(h.root, path.resolve(path.dirname(BUNDLE), original)).split(path.sep).join('/') : 'packages/server (unmapped)';
  }
  if (url.startsWith('node:')) return url;
  if (url.includes('/node_modules/')) return url.replace(/^.*?\/node_modules\//, 'node_modules/');
  if (url.includes('/bench/')) return url.replace(/^.*\/bench\//, 'bench/');
  if (url.startsWith('wasm')) return 'wasm';
  return f.functionName || '(native)';
}

/** A frame's function and the line it starts at in its source (the original source's, through the bundle's map). */
export function functionOf(/** @type {Frame} */ f, /** @type {SourceMap | undefined} */ map) {
  let line = f.lineNumber + 1;
  if (f.url.endsWith('/dist/main.mjs') && map) {
    const entry = map.findEntry(f.lineNumber, f.columnNumber);
    if ('originalLine' in entry) line = entry.originalLine + 1;
  }
  return `${f.functionName || '(anonymous)'}${line > 0 ? ` :${line}` : ''}`;
}
