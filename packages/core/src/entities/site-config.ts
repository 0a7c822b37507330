// Site config per domain (docs/ORIGINAL-API.md §3.9, docs/SPEC.md §3.9): branding, registration rules and the mail server
// of one domain. Admins manage all; a reseller only the configs it owns (user_id = its user_id).
import { z } from 'zod';
import { boolField, intField, listish } from '../schemas/encodings';
import { defineResource, parseJson, type Codec, type Fields } from '../resource';
import { INT4_MAX, idField, pageSchema, remarkField, statusField, statusFilter, textFilter } from '../schemas/common';

export const SITE_CONFIG_PREFIX = '/sys/site';

/**
 * Whether an admin has approved a site's domain (separate from the enabled/disabled `status`). Only an
 * approved and enabled site decides a domain's identity, mail server and the owner of registrations; a
 * reseller's new site, or one whose domain it changed, is pending until an admin approves it.
 */
export const SiteApproval = { Pending: 0, Approved: 1 } as const;
export type SiteApprovalValue = (typeof SiteApproval)[keyof typeof SiteApproval];

/** Recommended image sizes shown in the form (docs/SPEC.md §9). */
export const SITE_IMAGE_SIZES = { logo: '64x64', favicon: '32x32', avatar: '512x512', bg_img: '1920x1080' } as const;

/** Image upload (`POST /sys/site/upload`): at most 2 MB of png, jpeg, gif, webp, ico or svg. */
export const UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
export const UPLOAD_ACCEPT = '.png,.jpg,.jpeg,.gif,.webp,.ico,.svg';

/** A hostname: letters, digits and hyphens in dot-separated labels (an IPv4 address passes too). */
export const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

const text = (max: number) => z.string().trim().max(max).default('');
const url = text(500);
/** A list of up to 50; "" (the original console's empty field) is the empty list. */
const list = <T extends z.ZodType>(item: T) => listish(z.array(item).max(50).default([]));

const carouselItem = z.object({ image_url: z.string().trim().max(500).default(''), jump_url: z.string().trim().max(500).default('') });
const announcementItem = z.object({ content: z.string().trim().min(1).max(1000), jump_url: z.string().trim().max(500).default('') });
const documentItem = z.object({ title: z.string().trim().min(1).max(200), jump_url: z.string().trim().max(500).default('') });

const mailHost = z.string().trim().toLowerCase().max(253).refine((v) => v === '' || HOSTNAME.test(v), 'site.mail_host').default('');

export const siteConfigCreateSchema = z.object({
  domain: z.string().trim().toLowerCase().min(1).max(253).regex(HOSTNAME, 'site.domain'),
  title: text(100),
  logo: url,
  favicon: url,
  avatar: url,
  bg_img: url,
  copyright: text(500),
  jump_url: url,
  keywords: text(500),
  description: text(1000),
  icp_beian: text(100),
  ga_beian: text(100),
  /** Non-empty: registration on this domain is closed (the text is shown). */
  register_tips: text(500),
  /** Quota units granted to an account registering on this domain. */
  grant_quota: intField(0, 1e15).default(0),
  /** Minutes after registration the granted quota expires; 0 = never. */
  quota_expires_at: intField(0, 100 * 365 * 1440).default(0),
  support_email_suffix: list(z.string().trim().toLowerCase().min(1).max(100).regex(/^@?[a-z0-9.-]+$/, 'support_email_suffix')),
  register_welcome: text(2000),
  // Mail server: empty host = the system mail server is used.
  host: mailHost,
  /** 0 = 465. */
  port: intField(0, 65535).default(0),
  user_name: text(200),
  /** Write-only: empty on update keeps the stored password. */
  password: z.string().max(200).default(''),
  /** true removes the stored password. */
  clear_password: boolField.optional(),
  from_name: text(100),
  carousel1_title: text(100),
  carousels1: list(carouselItem),
  carousel2_title: text(100),
  carousels2: list(carouselItem),
  announcement_title: text(100),
  announcement_more_url: url,
  announcements: list(announcementItem),
  document_title: text(100),
  document_more_url: url,
  documents: list(documentItem),
  recharge_tips: text(2000),
  remark: remarkField.default(''),
  status: statusField.default(1),
});
/** A JSON list column; anything but an array reads as empty. */
const listColumn = <T>(): Codec<T[], string> => ({
  encode: (v) => JSON.stringify(v ?? []),
  decode: (s) => {
    const v = parseJson<unknown>(s, []);
    return Array.isArray(v) ? (v as T[]) : [];
  },
});
const suffixList = listColumn<string>();

/**
 * The site config resource. The mail server's fields are stored as `mail_*` columns, the password
 * encrypted; the server writes those (console/site-config.ts), and the approval is an admin's.
 */
export const siteConfigResource = defineResource({
  prefix: SITE_CONFIG_PREFIX,
  fields: siteConfigCreateSchema,
  columns: {
    // Stored with their `@`, however they were typed.
    support_email_suffix: { encode: (v: string[]) => suffixList.encode((v ?? []).map((s) => (s.startsWith('@') ? s : `@${s}`))), decode: suffixList.decode },
    carousels1: listColumn<z.output<typeof carouselItem>>(),
    carousels2: listColumn<z.output<typeof carouselItem>>(),
    announcements: listColumn<z.output<typeof announcementItem>>(),
    documents: listColumn<z.output<typeof documentItem>>(),
  },
  virtual: ['host', 'port', 'user_name', 'password', 'clear_password', 'from_name'],
});
export type SiteConfigFields = Fields<typeof siteConfigResource>;

export const siteConfigUpdateSchema = siteConfigCreateSchema.extend({ id: idField });
export type SiteConfigInput = z.infer<typeof siteConfigCreateSchema>;

export const siteConfigPageSchema = pageSchema.extend({
  user_id: z.coerce.number().int().min(0).max(INT4_MAX).optional(),
  register_tips: textFilter,
  logo: textFilter,
  domain: textFilter,
  title: textFilter,
  status: statusFilter,
  approved: z.union([z.literal(SiteApproval.Pending), z.literal(SiteApproval.Approved)]).optional(),
});

/** `POST /sys/site/change/approval` (admin only). */
export const siteApprovalSchema = z.object({ id: idField, approved: z.union([z.literal(SiteApproval.Pending), z.literal(SiteApproval.Approved)]) });

export const siteTestMailSchema = z.object({ id: idField, to: z.string().trim().toLowerCase().max(200).email('field.email') });

/** A stored site config on the wire: its fields (the public identity among them) and what only its owner sees. */
export type SiteConfig = Omit<SiteConfigFields, 'clear_password'> & {
  id: string;
  user_id: number;
  /** Always ''; `password_set` tells whether one is stored. */
  password: string;
  password_set: boolean;
  /** SiteApproval: 0 pending, 1 approved. */
  approved: number;
  created_at: string;
  updated_at: string;
};
