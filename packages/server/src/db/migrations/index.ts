// Static migration list (keeps working after bundling); names sort by ISO date.
import type { Migration, MigrationProvider } from 'kysely';
import * as init from './2026-11-22-01-init';
import * as corps from './2026-11-22-02-corps';
import * as catalogue from './2026-11-22-03-catalogue';
import * as callLogs from './2026-11-22-04-call-logs';
import * as rateLimits from './2026-11-22-05-rate-limits';
import * as usersDeals from './2026-11-22-06-users-deals';
import * as vipLicense from './2026-11-22-08-vip-license';
import * as statsTasks from './2026-11-22-09-stats-tasks';
import * as taskSettlement from './2026-11-22-13-task-settlement';
import * as callLogsUserModel from './2026-11-22-14-call-logs-user-model';
import * as statModelDay from './2026-11-22-15-stat-model-day';
import * as siteApproval from './2026-11-24-01-site-approval';
import * as twoFactor from './2026-11-24-02-two-factor';
import * as auditLog from './2026-11-24-03-audit-log';
import * as agentWireApi from './2026-11-24-04-agent-wire-api';
import * as storedResponses from './2026-11-24-05-stored-responses';
import * as usageDetails from './2026-11-24-07-usage-details';
import * as resellerFloor from './2026-11-24-08-reseller-floor';
import * as modelTokenLimits from './2026-11-24-09-model-token-limits';
import * as callLogsPartitioned from './2026-11-24-10-call-logs-partitioned';
import * as callLogsUserModelType from './2026-11-24-11-call-logs-user-model-type';
import * as statRankings from './2026-11-24-12-stat-rankings';

const migrations: Record<string, Migration> = {
  '2026-11-22-01-init': init,
  '2026-11-22-02-corps': corps,
  '2026-11-22-03-catalogue': catalogue,
  '2026-11-22-04-call-logs': callLogs,
  '2026-11-22-05-rate-limits': rateLimits,
  '2026-11-22-06-users-deals': usersDeals,
  '2026-11-22-08-vip-license': vipLicense,
  '2026-11-22-09-stats-tasks': statsTasks,
  '2026-11-22-13-task-settlement': taskSettlement,
  '2026-11-22-14-call-logs-user-model': callLogsUserModel,
  '2026-11-22-15-stat-model-day': statModelDay,
  '2026-11-24-01-site-approval': siteApproval,
  '2026-11-24-02-two-factor': twoFactor,
  '2026-11-24-03-audit-log': auditLog,
  '2026-11-24-04-agent-wire-api': agentWireApi,
  '2026-11-24-05-stored-responses': storedResponses,
  '2026-11-24-07-usage-details': usageDetails,
  '2026-11-24-08-reseller-floor': resellerFloor,
  '2026-11-24-09-model-token-limits': modelTokenLimits,
  '2026-11-24-10-call-logs-partitioned': callLogsPartitioned,
  '2026-11-24-11-call-logs-user-model-type': callLogsUserModelType,
  '2026-11-24-12-stat-rankings': statRankings,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
