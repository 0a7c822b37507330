// GET /api/v1/sys/ledger/verify (admins): the ledger verifier (billing/ledger-verify.ts, the invariant
// in its header) over the live database, once this instance has written what its ledger holds, so a
// call settled a moment ago counts on both sides. `npm run ledger:verify` runs the same check offline.
import type { FastifyInstance } from 'fastify';
import { verifyLedger, type LedgerReport } from '../billing/ledger-verify';
import { get } from '../http/route';

const LEDGER_VERIFY_PATH = '/sys/ledger/verify';
/** Drifts listed in one answer; `drift_count` says how many there are. */
const MAX_LISTED = 1000;

export async function ledgerVerifyRoutes(app: FastifyInstance) {
  get(app, LEDGER_VERIFY_PATH, { roles: ['admin'] }, async (): Promise<LedgerReport & { drift_count: number }> => {
    await app.gateway.ledger.flush();
    const report = await verifyLedger(app.ctx.db, app.ctx.dialect);
    return { ...report, drift_count: report.drifts.length, drifts: report.drifts.slice(0, MAX_LISTED) };
  });
}
