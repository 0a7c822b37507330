// `npm run db:compact`: switches a SQLite store made without auto_vacuum to incremental auto_vacuum with one
// full VACUUM, so the log retention's freed pages go back to the file system from then on (db/sqlite-space.ts).
// Run it with the product stopped (a VACUUM holds the write lock for its whole run), on the same DATA_DIR
// (default ./data). It needs about the file's size free on disk and takes roughly a minute per GB.
import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import { readConfig } from '../config';
import { sqliteFile } from './index';

const file = sqliteFile(readConfig().dataDir);
if (!fs.existsSync(file)) {
  console.error(`No SQLite store at ${file} (set DATA_DIR).`);
  process.exit(1);
}
const db = new SQLite(file);
// A running product holds the file: fail fast instead of vacuuming under it.
db.pragma('busy_timeout = 0');
const mb = () => (fs.statSync(file).size / 1024 / 1024).toFixed(0);
if (Number(db.pragma('auto_vacuum', { simple: true })) === 2) {
  console.log(`${file} already uses incremental auto_vacuum (${mb()} MB); nothing to do.`);
} else {
  const before = mb();
  const t0 = Date.now();
  console.log(`Compacting ${file} (${before} MB)…`);
  db.pragma('auto_vacuum = INCREMENTAL');
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
  console.log(`Done in ${((Date.now() - t0) / 1000).toFixed(0)} s: ${before} MB -> ${mb()} MB, incremental auto_vacuum on.`);
}
db.close();
