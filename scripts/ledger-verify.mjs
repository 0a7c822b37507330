// @ts-check
// `npm run ledger:verify [-- --database-url postgres://… | --data-dir ./data] [--json]`
//
// Recomputes every account's balance and used quota from what money leaves behind and prints any
// drift, per account; exits 1 when there is some, 2 when it could not check. Reads the database
// `npm start` would use (DATABASE_URL, else the SQLite file in DATA_DIR, ./data), read-only, no
// migrations; safe while servers run (one consistent read). GET /api/v1/sys/ledger/verify (admins)
// runs the same check on a live server after writing what its ledger still holds.
//
// The invariant (packages/server/src/billing/ledger-verify.ts says it in full), per existing account:
//   users.quota      = Σ deal records (status 1: recharge + gift − deduction − expiry; a reseller's
//                      allocations to its users are deductions on its own records)
//                      − Σ its charges as a caller its balance paid (not those it made while exempt,
//                        users.is_limit_quota = 0: each call log keeps that flag)
//   users.used_quota = Σ its charges as a caller + Σ its users' charges (a reseller: call_logs.rid)
//   apps, app_keys, groups: used_quota = Σ the charges made through them (their quota is a limit)
// where a charge is a call log's total_price (written in the same transaction as the balances), or
// the estimate a still-running async task was charged at submission (tasks.reserved). Call logs
// deleted by retention are stood in for by the daily statistics (which keep what they counted); groups
// have none, so after a purge they are not checked. Run under tsx (`node --import tsx`, as npm does).
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    'data-dir': { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log('Usage: npm run ledger:verify [-- --database-url URL | --data-dir DIR] [--json]');
  process.exit(0);
}

const { readConfig } = await import('../packages/server/src/config.ts');
const { createDb } = await import('../packages/server/src/db/index.ts');
const { verifyLedger } = await import('../packages/server/src/billing/ledger-verify.ts');
const { formatUsd } = await import('../packages/core/src/money.ts');

const config = readConfig({ ...process.env, ...(values['data-dir'] ? { DATA_DIR: values['data-dir'] } : {}), ...(values['database-url'] ? { DATABASE_URL: values['database-url'] } : {}) });
const { db, dialect } = createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const report = await verifyLedger(db, dialect);
  if (values.json) console.log(JSON.stringify(report));
  else {
    const where = config.databaseUrl ? `PostgreSQL ${new URL(config.databaseUrl).pathname.slice(1)}` : `SQLite in ${config.dataDir}`;
    const c = report.checked;
    console.log(`Ledger of ${where}: ${c.user} accounts, ${c.app} apps, ${c.app_key} app keys, ${c.group} groups checked`);
    for (const n of report.notes) console.log(`  note: ${n}`);
    for (const d of report.drifts) {
      const sign = d.drift > 0 ? '+' : '-';
      console.log(`  DRIFT ${d.account} ${d.id} ${d.field}: holds ${d.actual}, records say ${d.expected} (${sign}${Math.abs(d.drift)} units, ${sign}${formatUsd(Math.abs(d.drift))})`);
    }
    console.log(report.ok ? 'No drift.' : `${report.drifts.length} drifts.`);
  }
  process.exitCode = report.ok ? 0 : 1;
} catch (err) {
  console.error('ledger:verify failed:', err instanceof Error ? err.message : err);
  process.exitCode = 2;
} finally {
  await db.destroy();
}
