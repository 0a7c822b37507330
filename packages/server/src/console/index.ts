// The console API scope: everything under /api, envelope errors, sessions and role guards.
import type { FastifyInstance } from 'fastify';
import { envelopeErrorHandler, envelopeNotFound } from '../http/envelope';
import { collectRoutes } from '../http/route-registry';
import { registerSessionAuth } from '../http/session';
import { registerLicenseGuard } from '../license/state';
import { registerTwoFactorGate, twoFactorRoutes } from './two-factor';
import { licenseRoutes } from './license';
import { vipRoutes } from './vip';
import { appRoutes } from './app';
import { appKeyRoutes } from './app-key';
import { authRoutes } from './auth';
import { corpRoutes } from './corp';
import { groupRoutes } from './group';
import { keyRoutes } from './key';
import { modelRoutes } from './model';
import { modelAgentRoutes } from './model-agent';
import { breakerRoutes } from './breakers';
import { menuRoutes } from './menu';
import { openRoutes } from './open';
import { userCenterRoutes } from './user-center';
import { adminResellerRoutes, adminUserRoutes } from './user';
import { dealRecordRoutes } from './deal-record';
import { siteConfigRoutes } from './site-config';
import { sysConfigRoutes } from './sys-config';
import { billRoutes } from './bill';
import { dashboardRoutes } from './dashboard';
import { callLogRoutes } from './call-log';
import { liveRateRoutes } from './live-rates';
import { taskRoutes } from './task';
import { auditLogRoutes } from './audit-log';
import { ledgerVerifyRoutes } from './ledger-verify';
import { pickerRoutes } from './picker';

export async function consoleApi(app: FastifyInstance) {
  collectRoutes(app);
  app.setErrorHandler(envelopeErrorHandler);
  app.setNotFoundHandler(envelopeNotFound);
  registerSessionAuth(app);
  registerLicenseGuard(app);
  registerTwoFactorGate(app);
  await app.register(
    async (v1) => {
      await v1.register(authRoutes);
      await v1.register(openRoutes);
      await v1.register(userCenterRoutes);
      await v1.register(twoFactorRoutes);
      await v1.register(vipRoutes);
      await v1.register(licenseRoutes);
      await v1.register(corpRoutes);
      await v1.register(modelRoutes);
      await v1.register(modelAgentRoutes);
      await v1.register(breakerRoutes);
      await v1.register(groupRoutes);
      await v1.register(keyRoutes);
      await v1.register(appRoutes);
      await v1.register(appKeyRoutes);
      await v1.register(adminUserRoutes);
      await v1.register(adminResellerRoutes);
      await v1.register(dealRecordRoutes);
      await v1.register(siteConfigRoutes);
      await v1.register(sysConfigRoutes);
      await v1.register(billRoutes);
      await v1.register(dashboardRoutes);
      await v1.register(callLogRoutes);
      await v1.register(liveRateRoutes);
      await v1.register(taskRoutes);
      await v1.register(auditLogRoutes);
      await v1.register(ledgerVerifyRoutes);
      await v1.register(pickerRoutes);
    },
    { prefix: '/v1' },
  );
  // The Arco template's server-menu call lives outside /v1 (docs/SPEC.md §7).
  await app.register(menuRoutes);
}
