// Whose mail server may carry mail to an address. Verification codes are keys to accounts, so the
// caller never chooses: mail for an existing account goes through the platform's server or the approved
// site of the reseller that owns the account; only a newcomer's registration mail goes through the
// approved site of the domain it registers on (the site that will own it). Admins' and resellers'
// accounts belong to the platform.
import type { DB, SiteConfigRow, UserRow } from '../db/schema';
import { approvedSiteOfReseller, findSiteConfig } from '../settings/site-config';

/** The site whose mail server serves an account; undefined = the platform's server. */
export async function accountMailSite(db: DB, user: Pick<UserRow, 'role' | 'rid'>): Promise<SiteConfigRow | undefined> {
  return user.role === 'user' && user.rid > 0 ? approvedSiteOfReseller(db, user.rid) : undefined;
}

/**
 * The site whose mail server serves someone registering `email` on `domain` (only approved sites
 * count). An address that any account already uses (an admin's, say, registering as a user) is served
 * like that account, so no site's mail server ever sees a code sent to another site's or the platform's
 * people.
 */
export async function newcomerMailSite(db: DB, email: string, domain: string | undefined): Promise<SiteConfigRow | undefined> {
  const holders = await db.selectFrom('users').select(['role', 'rid']).where('email', '=', email.toLowerCase()).orderBy('user_id').execute();
  if (holders.length) return holders.length === 1 ? accountMailSite(db, holders[0]!) : undefined;
  return findSiteConfig(db, domain);
}
