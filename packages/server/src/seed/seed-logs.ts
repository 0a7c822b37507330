// `npm run seed:logs -- --rows N [--days 60] [--users 500] [--resellers N] [--database-url postgres://…]
//                      [--seed N] [--chunk 5000] [--password …] [--no-statistics] [--json]`
//
// Fills a database with realistic business data (seed.ts: catalogue and accounts when missing, N call
// logs over the last `days` days, their charges, the daily statistics) and says how to sign in. Runs
// against the database `npm start` would use (DATA_DIR's SQLite, or DATABASE_URL) through the real app:
// migrations, the first admin, the console API for the catalogue. Re-running adds more rows.
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { buildApp } from '../app';
import { readConfig } from '../config';
import { formatUsd } from '@fastgate/core/money';
import { MAX_CHUNK } from '../jobs/statistics';
import { seedLogs } from './seed';

function options() {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string' },
      days: { type: 'string', default: '60' },
      users: { type: 'string', default: '500' },
      resellers: { type: 'string' },
      'database-url': { type: 'string' },
      seed: { type: 'string' },
      chunk: { type: 'string', default: '5000' },
      password: { type: 'string', default: 'Seed#12345' },
      'no-statistics': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const int = (name: string, v: string | undefined, min: number, max: number) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer from ${min} to ${max}, got ${v ?? 'nothing'}`);
    return n;
  };
  if (values.help) return undefined;
  const users = int('users', values.users, 1, 20_000);
  return {
    rows: int('rows', values.rows, 0, 100_000_000),
    days: int('days', values.days, 1, 3650),
    users,
    resellers: values.resellers === undefined ? Math.max(1, Math.round(users / 100)) : int('resellers', values.resellers, 0, 1000),
    databaseUrl: values['database-url'],
    seed: values.seed === undefined ? Date.now() % 2 ** 31 : int('seed', values.seed, 0, 2 ** 31),
    chunk: int('chunk', values.chunk, 100, MAX_CHUNK),
    password: values.password,
    statistics: !values['no-statistics'],
    json: values.json,
  };
}

const HELP = `Usage: npm run seed:logs -- --rows N [options]

  --rows N            call-log rows to add (attempt rows included)
  --days D            spread them over the last D days (default 60)
  --users U           seed users (default 500; created when missing, named seed-user-0001…)
  --resellers R       seed resellers (default users / 100)
  --database-url URL  PostgreSQL (default: DATABASE_URL, else the SQLite file in DATA_DIR, ./data)
  --seed N            random seed (default: the clock), to reproduce a data set
  --chunk N           rows per insert transaction (default 5000)
  --password P        password of the seed accounts (default Seed#12345)
  --no-statistics     skip building the daily statistics
  --json              print a machine-readable summary as the last line`;

async function main() {
  const opts = options();
  if (!opts) {
    console.log(HELP);
    return;
  }
  const timer = () => {
    const t0 = performance.now();
    return () => (performance.now() - t0) / 1000;
  };
  const total = timer();
  const config = readConfig();
  if (opts.databaseUrl) config.databaseUrl = opts.databaseUrl;
  // The app's log goes through here: warnings and errors are shown, the first admin's password kept.
  let adminNote = '';
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        const entry = JSON.parse(line) as { level: number; msg: string };
        if (entry.msg.includes('created the first admin')) adminNote = entry.msg;
        else if (entry.level >= 40 && !entry.msg.includes('console is not built')) process.stderr.write(`${entry.msg}\n`);
      }
      cb();
    },
  });
  const where = config.databaseUrl ? `PostgreSQL ${new URL(config.databaseUrl).pathname.slice(1)}` : `SQLite in ${config.dataDir}`;
  console.log(`Seeding ${where}: ${opts.rows.toLocaleString('en-US')} call logs over ${opts.days} days, ${opts.users} users (seed ${opts.seed})`);

  const app = await buildApp({ ...config, logLevel: 'warn' }, { logger: { level: 'warn', stream } });
  try {
    const start = total();
    const s = await seedLogs(app, {
      ...opts,
      progress: (n, sec) => console.log(`  ${n.toLocaleString('en-US')} rows, ${Math.round(n / sec).toLocaleString('en-US')} rows/s`),
    });
    const seconds = { start, ...s.seconds, total: total() };
    const c = s.created;
    console.log(`
Created: ${c.corps} vendors, ${c.agents} model agents, ${c.models} models, ${c.groups} groups, ${c.resellers} resellers, ${c.users} users, ${c.apps} apps, ${c.keys} app keys, ${c.quotaMoves} quota movements
Call logs: ${s.rows.toLocaleString('en-US')} rows (${s.requests.toLocaleString('en-US')} requests; rows by status ${JSON.stringify(s.statuses)}), spend ${formatUsd(s.spend)}
Statistics: ${opts.statistics ? statisticsLine(s.rows, s.statRows) : 'skipped (--no-statistics)'}
Time: ${Object.entries(seconds).map(([k, v]) => `${k} ${v.toFixed(1)} s`).join(', ')}; ${Math.round(s.rows / (s.seconds.logs || 1)).toLocaleString('en-US')} rows/s

Sign in (npm start${config.databaseUrl ? ' with the same DATABASE_URL' : ''}):
  admin      ${adminNote || (config.adminPassword ? `${config.adminAccount ?? 'admin'} / the ADMIN_PASSWORD you set` : 'your existing admin account')}
  heaviest   ${s.heavy?.account ?? '-'} / ${opts.password}   (channel user${s.heavy?.model ? `; favourite model ${s.heavy.model}` : ''})
  reseller   ${s.reseller?.account ?? '-'} / ${opts.password}   (channel reseller)
A server already running on this database loads the new accounts when restarted.`);
    if (opts.json) console.log(JSON.stringify({ ...s, seconds, password: opts.password }));
  } finally {
    await app.close();
  }
}

/**
 * The app's own scheduled statistics job runs while the seed writes (every 10 s by default) and reads what
 * is committed; the seed's final run reads only the rest, so its count (and time) alone would understate.
 */
function statisticsLine(rows: number, readBySeed: number): string {
  const n = (v: number) => v.toLocaleString('en-US');
  if (readBySeed >= rows) return `${n(readBySeed)} rows read into the daily tables`;
  return `the daily tables are up to date: ${n(readBySeed)} rows read at the end, the other ${n(rows - readBySeed)} by the app's scheduled statistics job while seeding`;
}

main().catch((err: unknown) => {
  console.error('seed:logs failed:', err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
