// /api/v1/sys/site: site configs per domain (docs/ORIGINAL-API.md §3.9). Admins manage every config; a reseller
// only its own (site_configs.user_id = its user_id), other ids answer "record not found".
// The mail password is stored encrypted and never leaves the server: rows carry `password: ''` and
// `password_set`; an update with an empty password keeps the stored one (`clear_password` removes it).
// Issue 11: a reseller's site is pending until an admin approves its domain (and again after the
// reseller changes the domain); the platform's own hosts are never a reseller's; a reseller's mail server
// must be a public address (no port scanning of this server's network through the test mail), and its
// uploads are counted against a quota.
import { ErrorCode } from '@fastgate/core/constants';
import {
  SITE_CONFIG_PREFIX,
  SiteApproval,
  UPLOAD_MAX_BYTES,
  siteApprovalSchema,
  siteConfigCreateSchema,
  siteConfigPageSchema,
  siteConfigResource,
  siteConfigUpdateSchema,
  siteTestMailSchema,
  type SiteConfig,
  type SiteConfigInput,
} from '@fastgate/core/entities/site-config';
import { t } from '@fastgate/core/messages';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { SiteConfigRow } from '../db/schema';
import { callerOf, contains, registerCrud, resource, type Caller, type TableQuery } from '../http/crud';
import { AppError, businessError } from '../http/errors';
import { post } from '../http/route';
import { formatTime } from '../http/time';
import { resolvePublicHost } from '../security/public-host';
import { isReservedHost, siteOwnerRole } from '../settings/site-config';
import { cleanUploads, storeCountedUpload } from '../settings/upload-quota';
import { multipartFile, sniffImage } from '../settings/uploads';

const ROLES = ['admin', 'reseller'] as const;

export async function siteConfigRoutes(app: FastifyInstance) {
  const ctx = app.ctx;
  const { db, config, secrets } = ctx;

  /** A domain has one config: a clear error instead of the database's unique violation. */
  const assertDomainFree = async (domain: string, exceptId?: string) => {
    let q = db.selectFrom('site_configs').select('id').where('domain', '=', domain);
    if (exceptId) q = q.where('id', '!=', exceptId);
    if (await q.executeTakeFirst()) throw businessError('site.domain_exists', { domain });
  };

  /** Sites of an admin are the platform's; any other owner's (a reseller's) fall under the rules below. */
  const ownedByAdmin = async (site: Pick<SiteConfigRow, 'user_id'>) => (await siteOwnerRole(db, site)) === 'admin';

  /** A reseller's site may not take the platform's own hosts. */
  const assertClaimable = async (domain: string) => {
    if (await isReservedHost(db, domain)) throw businessError('site.domain_reserved', { domain });
  };

  /**
   * A reseller's mail server must be a public address (host.not_public otherwise). A name that does not
   * resolve yet is accepted: it is resolved and checked again whenever mail goes through it.
   */
  const assertPublicMailHost = async (host: string) => {
    if (!host) return;
    await resolvePublicHost(host, config.mailPrivateAllow).catch((err: unknown) => {
      if (!(err instanceof AppError && err.key === 'host.unresolved')) throw err;
    });
  };

  /** After a save or before a delete: the owner's uploads nothing references any more (past their grace) go. */
  const tidyUploads = (userId: number, exceptIds: string[] = []) =>
    cleanUploads(ctx, { userId, exceptIds }).catch((err: unknown) => ctx.log.error({ err, user_id: userId }, 'upload cleanup failed'));

  /** Input → columns; the mail server's fields are `mail_*` columns, and the password is handled by the caller. */
  const columns = (input: SiteConfigInput) => ({
    ...siteConfigResource.encode(input),
    mail_host: input.host,
    mail_port: input.port,
    mail_user_name: input.user_name,
    mail_from_name: input.from_name,
  });

  const toWire = (row: SiteConfigRow): SiteConfig => ({
    id: row.id,
    user_id: row.user_id,
    ...siteConfigResource.decode(row),
    host: row.mail_host,
    port: row.mail_port,
    user_name: row.mail_user_name,
    // The mail password never leaves the server; the form learns only whether one is set.
    password: '',
    password_set: !!row.mail_password,
    from_name: row.mail_from_name,
    approved: row.approved,
    created_at: formatTime(row.created_at, config.timeZone),
    updated_at: formatTime(row.updated_at, config.timeZone),
  });

  const scope = (q: TableQuery<'site_configs'>, caller: Caller) =>
    caller.session.role === 'admin' ? q : q.where('user_id', '=', caller.session.user.user_id);

  const page = {
    schema: siteConfigPageSchema,
    filter: (q: TableQuery<'site_configs'>, f: z.infer<typeof siteConfigPageSchema>) => {
      let out = contains(contains(contains(contains(q, 'domain', f.domain), 'title', f.title), 'logo', f.logo), 'register_tips', f.register_tips);
      if (f.user_id) out = out.where('user_id', '=', f.user_id);
      if (f.status) out = out.where('status', '=', f.status);
      if (f.approved !== undefined) out = out.where('approved', '=', f.approved);
      return out;
    },
    // Sites waiting for review first: they are what the admin has to act on.
    order: [['approved', 'asc'], ['status', 'asc'], ['updated_at', 'desc']] as const,
  };

  registerCrud(app, {
    prefix: SITE_CONFIG_PREFIX,
    table: 'site_configs',
    roles: { create: ROLES, update: ROLES, delete: ROLES, detail: ROLES, page: ROLES, status: ROLES, batch: ROLES },
    scope,
    create: {
      schema: siteConfigCreateSchema,
      toRow: async (input, caller) => {
        await assertDomainFree(input.domain);
        const admin = caller.session.role === 'admin';
        if (!admin) {
          await assertClaimable(input.domain);
          await assertPublicMailHost(input.host);
        }
        return {
          ...columns(input),
          user_id: caller.session.user.user_id,
          mail_password: secrets.encrypt(input.password),
          // An admin's own site is the platform's: approved at once.
          approved: admin ? SiteApproval.Approved : SiteApproval.Pending,
        };
      },
    },
    update: {
      schema: siteConfigUpdateSchema,
      toRow: async ({ id, ...input }, existing: SiteConfigRow, caller) => {
        await assertDomainFree(input.domain, id);
        const redomained = input.domain !== existing.domain;
        if (!(await ownedByAdmin(existing))) {
          if (redomained) await assertClaimable(input.domain);
          await assertPublicMailHost(input.host);
        }
        const mail_password = input.password ? secrets.encrypt(input.password) : input.clear_password ? '' : existing.mail_password;
        // A reseller moving its site to another domain asks for that domain anew.
        const approval = redomained && caller.session.role !== 'admin' ? { approved: SiteApproval.Pending } : {};
        return { ...columns(input), mail_password, ...approval };
      },
      after: async (row) => {
        await tidyUploads(row.user_id);
      },
    },
    beforeDelete: async (rows) => {
      const ids = rows.map((r) => r.id);
      for (const owner of new Set(rows.map((r) => r.user_id))) await tidyUploads(owner, ids);
    },
    page,
    toWire,
  });

  // Approving or revoking a site's domain: admins only (a reseller's own request never approves itself).
  const sites = resource<'site_configs', SiteConfig, typeof siteConfigPageSchema>(ctx, { table: 'site_configs', scope, page, toWire });
  post(app, `${SITE_CONFIG_PREFIX}/change/approval`, { schema: siteApprovalSchema, roles: ['admin'] }, async (input, request) => {
    const caller = callerOf(request);
    const [row] = await sites.visible(caller, [input.id]);
    if (input.approved === SiteApproval.Approved && !(await ownedByAdmin(row!))) await assertClaimable(row!.domain);
    await sites.updateRows(caller, [row!], { approved: input.approved });
  });

  // Sends one mail through this config's own mail server (not the fallback chain of ctx.mailer), so
  // an admin sees whether exactly these settings work.
  post(app, `${SITE_CONFIG_PREFIX}/test/mail`, { schema: siteTestMailSchema, roles: ROLES }, async (input, request) => {
    const caller = callerOf(request);
    const row = (await sites.visible(caller, [input.id]))[0]!;
    if (!row.mail_host) throw businessError('site.mail_unset');
    try {
      // The mailer connects to a reseller's server only on a checked public address (mail/mailer.ts).
      await ctx.mailer.sendThroughSite(row, { to: input.to, subject: t('site.mail_subject', caller.locale), text: t('site.mail_body', caller.locale, { domain: row.domain }) });
    } catch (err) {
      // A refused host (private, unresolvable) says so plainly: it is about the settings, not the network.
      if (err instanceof AppError) throw err;
      const e = err as { code?: string; message?: string };
      request.log.info({ host: row.mail_host, port: row.mail_port, code: e.code }, 'site test mail failed');
      // Only the admin learns why: to a reseller, refused, timed out and rejected look alike, so the
      // test mail tells nothing about which hosts and ports answer.
      if (caller.session.role !== 'admin') throw businessError('site.mail_failed_generic');
      throw businessError('site.mail_failed', { detail: [e.code, e.message].filter(Boolean).join(' ').slice(0, 300) });
    }
    return { sent: true };
  });

  // Image upload (logo, favicon, avatar, background). Own scope: the multipart parser applies here only.
  await app.register(async (scoped) => {
    scoped.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: UPLOAD_MAX_BYTES + 256 * 1024 }, (request, body, done) => {
      done(null, { file: multipartFile(body as Buffer, request.headers['content-type']) });
    });
    post(scoped, `${SITE_CONFIG_PREFIX}/upload`, { roles: ROLES }, async (input, request) => {
      const file = (input as { file?: { data: Buffer } } | undefined)?.file;
      if (!file?.data.length) throw new AppError(ErrorCode.Validation, 'upload.missing');
      if (file.data.length > UPLOAD_MAX_BYTES) throw new AppError(ErrorCode.Validation, 'upload.too_large', { mb: UPLOAD_MAX_BYTES / 1024 / 1024 });
      const ext = sniffImage(file.data);
      if (!ext) throw new AppError(ErrorCode.Validation, 'upload.type');
      const { session } = callerOf(request);
      // Admins are not limited; a reseller's files and bytes are (system config `sites`).
      return { url: await storeCountedUpload(ctx, { userId: session.user.user_id, limited: session.role !== 'admin' }, ext, file.data) };
    });
  });
}
