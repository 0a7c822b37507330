// /api/v1/open: public site identity and login options (docs/ORIGINAL-API.md §1.9).
import type { OpenSysConfig } from '@fastgate/core/schemas/auth';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { get, post } from '../http/route';
import { getSysSection } from '../settings/sys-config';
import { findSiteConfig, publicSite } from '../settings/site-config';
import { domainOf } from './auth';

const siteQuery = z.object({ domain: z.string().trim().max(253).optional() });

export async function openRoutes(app: FastifyInstance) {
  const db = app.ctx.db;

  post(app, '/open/site/config', { schema: siteQuery, public: true }, async (input, request) => {
    const domain = domainOf(request, input.domain);
    return publicSite(await findSiteConfig(db, domain), domain);
  });

  const loginOptions = async (): Promise<OpenSysConfig> => {
    const pick = ({ account_login, email_login, email_register, email_retrieve }: Awaited<ReturnType<typeof getSysSection<'user_login_register'>>>) => ({
      account_login, email_login, email_register, email_retrieve,
    });
    const admin = await getSysSection(db, 'admin_login');
    return {
      user_login_register: pick(await getSysSection(db, 'user_login_register')),
      reseller_login_register: pick(await getSysSection(db, 'reseller_login_register')),
      admin_login: { account_login: admin.account_login, email_login: admin.email_login, email_retrieve: admin.email_retrieve },
    };
  };
  get(app, '/open/sys/config', { public: true }, loginOptions);
  post(app, '/open/sys/config', { public: true }, loginOptions);
}
