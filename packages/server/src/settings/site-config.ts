// Which site config serves a domain (reference §1.9): the enabled config of that domain, else the
// newest enabled one owned by the first admin (user_id 1), else none (the built-in defaults apply).
import { Status } from '@fastgate/core/constants';
import { withSiteDefaults, type PublicSiteConfig } from '@fastgate/core/site';
import type { DB, SiteConfigRow } from '../db/schema';

export async function findSiteConfig(db: DB, domain: string | undefined): Promise<SiteConfigRow | undefined> {
  const enabled = db.selectFrom('site_configs').selectAll().where('status', '=', Status.Normal);
  if (domain) {
    const own = await enabled.where('domain', '=', domain.toLowerCase()).executeTakeFirst();
    if (own) return own;
  }
  return enabled.where('user_id', '=', 1).orderBy('updated_at', 'desc').limit(1).executeTakeFirst();
}

/** A stored JSON list (validated when written); anything unreadable is empty. */
function list<T>(json: string): T[] {
  try {
    const v = JSON.parse(json || '[]') as unknown;
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
}

/** The display fields of a stored config, lists parsed: what the public may see (no mail server, no grant). */
export function siteDisplay(row: SiteConfigRow): PublicSiteConfig {
  return {
    domain: row.domain,
    title: row.title,
    logo: row.logo,
    favicon: row.favicon,
    avatar: row.avatar,
    bg_img: row.bg_img,
    copyright: row.copyright,
    jump_url: row.jump_url,
    keywords: row.keywords,
    description: row.description,
    icp_beian: row.icp_beian,
    ga_beian: row.ga_beian,
    register_tips: row.register_tips,
    support_email_suffix: list(row.support_email_suffix),
    carousel1_title: row.carousel1_title,
    carousels1: list(row.carousels1),
    carousel2_title: row.carousel2_title,
    carousels2: list(row.carousels2),
    announcement_title: row.announcement_title,
    announcement_more_url: row.announcement_more_url,
    announcements: list(row.announcements),
    document_title: row.document_title,
    document_more_url: row.document_more_url,
    documents: list(row.documents),
  };
}

/** The public site identity of a domain, empty fields filled with the defaults. */
export function publicSite(row: SiteConfigRow | undefined, domain: string): PublicSiteConfig {
  return row ? withSiteDefaults(siteDisplay(row)) : { ...withSiteDefaults({}), domain };
}
