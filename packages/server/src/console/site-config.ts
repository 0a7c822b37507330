// /api/v1/sys/site: site configs per domain (reference §3.9). Admins manage every config; a reseller
// only its own (site_configs.user_id = its user_id), other ids answer "record not found".
// The mail password is stored encrypted and never leaves the server: rows carry `password: ''` and
// `password_set`; an update with an empty password keeps the stored one (`clear_password` removes it).
import { ErrorCode } from '@fastgate/core/constants';
import {
  SITE_CONFIG_PREFIX,
  UPLOAD_MAX_BYTES,
  siteConfigCreateSchema,
  siteConfigPageSchema,
  siteConfigUpdateSchema,
  siteTestMailSchema,
  type SiteConfig,
  type SiteConfigInput,
} from '@fastgate/core/entities/site-config';
import { t } from '@fastgate/core/messages';
import type { FastifyInstance } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import type { SiteConfigRow } from '../db/schema';
import { callerOf, contains, registerCrud, type Caller } from '../http/crud';
import { AppError, businessError, notFound } from '../http/errors';
import { post } from '../http/route';
import { formatTime } from '../http/time';
import { siteDisplay } from '../settings/site-config';
import { multipartFile, sniffImage, storeUpload } from '../settings/uploads';

const ROLES = ['admin', 'reseller'] as const;


export async function siteConfigRoutes(app: FastifyInstance) {
  const { db, config, secrets } = app.ctx;

  /** A domain has one config: a clear error instead of the database's unique violation. */
  const assertDomainFree = async (domain: string, exceptId?: string) => {
    let q = db.selectFrom('site_configs').select('id').where('domain', '=', domain);
    if (exceptId) q = q.where('id', '!=', exceptId);
    if (await q.executeTakeFirst()) throw businessError('site.domain_exists', { domain });
  };

  /** Input → columns (mail fields are `mail_*`, lists JSON text); the password is handled by the caller. */
  const columns = (input: SiteConfigInput) => {
    const { host, port, user_name, password: _p, clear_password: _c, from_name, support_email_suffix, carousels1, carousels2, announcements, documents, ...rest } = input;
    return {
      ...rest,
      mail_host: host,
      mail_port: port,
      mail_user_name: user_name,
      mail_from_name: from_name,
      support_email_suffix: JSON.stringify(support_email_suffix.map((s) => (s.startsWith('@') ? s : `@${s}`))),
      carousels1: JSON.stringify(carousels1),
      carousels2: JSON.stringify(carousels2),
      announcements: JSON.stringify(announcements),
      documents: JSON.stringify(documents),
    };
  };

  const toWire = (row: SiteConfigRow): SiteConfig => ({
    ...siteDisplay(row),
    id: row.id,
    user_id: row.user_id,
    grant_quota: Number(row.grant_quota),
    quota_expires_at: row.quota_expires_at,
    register_welcome: row.register_welcome,
    host: row.mail_host,
    port: row.mail_port,
    user_name: row.mail_user_name,
    // The mail password never leaves the server; the form learns only whether one is set.
    password: '',
    password_set: !!row.mail_password,
    from_name: row.mail_from_name,
    recharge_tips: row.recharge_tips,
    remark: row.remark,
    status: row.status,
    created_at: formatTime(row.created_at, config.timeZone),
    updated_at: formatTime(row.updated_at, config.timeZone),
  });

  const scope = (q: SelectQueryBuilder<any, any, any>, caller: Caller) =>
    caller.session.role === 'admin' ? q : q.where('user_id', '=', caller.session.user.user_id);

  registerCrud(app, {
    prefix: SITE_CONFIG_PREFIX,
    table: 'site_configs',
    roles: { create: ROLES, update: ROLES, delete: ROLES, detail: ROLES, page: ROLES, status: ROLES, batch: ROLES },
    scope,
    create: {
      schema: siteConfigCreateSchema,
      toRow: async (input, caller) => {
        await assertDomainFree(input.domain);
        return { ...columns(input), user_id: caller.session.user.user_id, mail_password: secrets.encrypt(input.password) };
      },
    },
    update: {
      schema: siteConfigUpdateSchema,
      toRow: async ({ id, ...input }, existing: SiteConfigRow) => {
        await assertDomainFree(input.domain, id);
        const mail_password = input.password ? secrets.encrypt(input.password) : input.clear_password ? '' : existing.mail_password;
        return { ...columns(input), mail_password };
      },
    },
    page: {
      schema: siteConfigPageSchema,
      filter: (q, f) => {
        let out = contains(contains(contains(contains(q, 'domain', f.domain), 'title', f.title), 'logo', f.logo), 'register_tips', f.register_tips);
        if (f.user_id) out = out.where('user_id', '=', f.user_id);
        if (f.status) out = out.where('status', '=', f.status);
        return out;
      },
      order: [['status', 'asc'], ['updated_at', 'desc']],
    },
    toWire,
  });

  // Sends one mail through this config's own mail server (not the fallback chain of ctx.mailer), so
  // an admin sees whether exactly these settings work.
  post(app, `${SITE_CONFIG_PREFIX}/test/mail`, { schema: siteTestMailSchema, roles: ROLES }, async (input, request) => {
    const caller = callerOf(request);
    const row = (await scope(db.selectFrom('site_configs').selectAll(), caller).where('id', '=', input.id).executeTakeFirst()) as SiteConfigRow | undefined;
    if (!row) throw notFound();
    if (!row.mail_host) throw businessError('site.mail_unset');
    const user = row.mail_user_name;
    const password = row.mail_password ? secrets.decrypt(row.mail_password) : '';
    const port = row.mail_port || 465;
    const { default: nodemailer } = await import('nodemailer');
    const transport = nodemailer.createTransport({
      host: row.mail_host,
      port,
      secure: port === 465,
      auth: user ? { user, pass: password } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    const from = user.includes('@') ? user : `no-reply@${row.mail_host}`;
    try {
      await transport.sendMail({
        from: row.mail_from_name ? { name: row.mail_from_name, address: from } : from,
        to: input.to,
        subject: t('site.mail_subject', caller.locale),
        text: t('site.mail_body', caller.locale, { domain: row.domain }),
      });
    } catch (err) {
      const e = err as { code?: string; message?: string };
      request.log.info({ host: row.mail_host, port, code: e.code }, 'site test mail failed');
      throw businessError('site.mail_failed', { detail: [e.code, e.message].filter(Boolean).join(' ').slice(0, 300) });
    } finally {
      transport.close();
    }
    return { sent: true };
  });

  // Image upload (logo, favicon, avatar, background). Own scope: the multipart parser applies here only.
  await app.register(async (scoped) => {
    scoped.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: UPLOAD_MAX_BYTES + 256 * 1024 }, (request, body, done) => {
      done(null, { file: multipartFile(body as Buffer, request.headers['content-type']) });
    });
    post(scoped, `${SITE_CONFIG_PREFIX}/upload`, { roles: ROLES }, async (input) => {
      const file = (input as { file?: { data: Buffer } } | undefined)?.file;
      if (!file?.data.length) throw new AppError(ErrorCode.Validation, 'upload.missing');
      if (file.data.length > UPLOAD_MAX_BYTES) throw new AppError(ErrorCode.Validation, 'upload.too_large', { mb: UPLOAD_MAX_BYTES / 1024 / 1024 });
      const ext = sniffImage(file.data);
      if (!ext) throw new AppError(ErrorCode.Validation, 'upload.type');
      return { url: await storeUpload(config.dataDir, ext, file.data) };
    });
  });
}
