// Which site config serves a domain (docs/ORIGINAL-API.md §1.9): the enabled and approved config of that domain,
// else the newest enabled one owned by the first admin (user_id 1), else none (the built-in defaults
// apply). Approval (issue 11): a reseller's site decides nothing — identity, mail server, the owner of
// new registrations — until an admin approves its domain; every such decision goes through here.
import net from 'node:net';
import { Status, type Role } from '@fastgate/core/constants';
import { SiteApproval, siteConfigResource } from '@fastgate/core/entities/site-config';
import { PUBLIC_SITE_FIELDS, withSiteDefaults, type PublicSiteConfig } from '@fastgate/core/site';
import type { DB, SiteConfigRow } from '../db/schema';
import { getSysSection } from './sys-config';

const active = (db: DB) => db.selectFrom('site_configs').selectAll().where('status', '=', Status.Normal).where('approved', '=', SiteApproval.Approved);

export async function findSiteConfig(db: DB, domain: string | undefined): Promise<SiteConfigRow | undefined> {
  if (domain) {
    const own = await active(db).where('domain', '=', domain.toLowerCase()).executeTakeFirst();
    if (own) return own;
  }
  return active(db).where('user_id', '=', 1).orderBy('updated_at', 'desc').limit(1).executeTakeFirst();
}

/** The role of a site's owner: an admin's site is the platform's own, a reseller's falls under its rules. */
export async function siteOwnerRole(db: DB, site: Pick<SiteConfigRow, 'user_id'>): Promise<Role | undefined> {
  return (await db.selectFrom('users').select('role').where('user_id', '=', site.user_id).executeTakeFirst())?.role;
}

/** A reseller's approved and enabled site, the newest first: its mail server sends its users' mail. */
export async function approvedSiteOfReseller(db: DB, resellerUserId: number): Promise<SiteConfigRow | undefined> {
  return active(db)
    .where('user_id', '=', resellerUserId)
    .where('user_id', 'in', db.selectFrom('users').select('user_id').where('role', '=', 'reseller'))
    .orderBy('updated_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Whether `domain` belongs to the platform, so no reseller may use it for a site: IP addresses,
 * localhost, the system config's `sites.reserved_hosts` (`*.x` = every subdomain of x) and the hosts
 * admins sign in on. (An admin's own site holds its domain already: domains are unique.)
 */
export async function isReservedHost(db: DB, domain: string): Promise<boolean> {
  const host = domain.toLowerCase();
  // No top-level domain is all digits: such a host is an address in another spelling (2130706433, 127.1).
  if (net.isIP(host) || /(^|\.)\d+$/.test(host) || host === 'localhost' || host.endsWith('.localhost')) return true;
  const { reserved_hosts } = await getSysSection(db, 'sites');
  if (reserved_hosts.some((h) => (h.startsWith('*.') ? host.endsWith(h.slice(1)) : h === host))) return true;
  const admin = await db.selectFrom('users').select('user_id').where('role', '=', 'admin').where('login_domain', '=', host).limit(1).executeTakeFirst();
  return !!admin;
}

/** The display fields of a stored config, lists parsed: what the public may see (no mail server, no grant). */
function siteDisplay(row: SiteConfigRow): PublicSiteConfig {
  const fields = siteConfigResource.decode(row);
  return Object.fromEntries(PUBLIC_SITE_FIELDS.map((k) => [k, fields[k]])) as PublicSiteConfig;
}

/** The public site identity of a domain, empty fields filled with the defaults. */
export function publicSite(row: SiteConfigRow | undefined, domain: string): PublicSiteConfig {
  return row ? withSiteDefaults(siteDisplay(row)) : { ...withSiteDefaults({}), domain };
}
