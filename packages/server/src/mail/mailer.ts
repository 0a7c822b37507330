// Outgoing mail through nodemailer: the mail server of the site the sender names (mail/route.ts decides
// which site may carry mail to whom), else the system config's email section, else none — then the
// message is written to the server log (README says so). A reseller's mail server is reached only on a
// public address, pinned to the address that was checked (security/public-host.ts).
import net from 'node:net';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { DB, SiteConfigRow } from '../db/schema';
import { resolvePublicHost } from '../security/public-host';
import type { Secrets } from '../security/secrets';
import { siteOwnerRole } from '../settings/site-config';
import { getSysSection } from '../settings/sys-config';

interface MailServer {
  host: string;
  port: number;
  user: string;
  password: string;
  fromName: string;
  /** A reseller's server: connected to only on a public address (or one MAIL_PRIVATE_ALLOW lists). */
  untrusted: boolean;
}

interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The approved site whose own mail server sends it (mail/route.ts); absent: the platform's server. */
  site?: SiteConfigRow;
}

export interface Mailer {
  /** true when handed to a mail server, false when only logged (no server configured). */
  send(mail: Mail): Promise<boolean>;
  /** Sends through exactly this site's server, no fallback (the site test mail); failures reach the caller. */
  sendThroughSite(site: SiteConfigRow, mail: Omit<Mail, 'site'>): Promise<void>;
  close(): void;
}

export function createMailer(db: DB, secrets: Secrets, log: FastifyBaseLogger, privateAllow: readonly string[] = []): Mailer {
  const transports = new Map<string, Transporter>();

  /** A site's own mail server; sites of admins are the platform's own, anyone else's is untrusted. */
  async function siteServer(site: SiteConfigRow): Promise<MailServer> {
    return {
      host: site.mail_host,
      port: site.mail_port || 465,
      user: site.mail_user_name,
      password: site.mail_password ? secrets.decrypt(site.mail_password) : '',
      fromName: site.mail_from_name,
      untrusted: (await siteOwnerRole(db, site)) !== 'admin',
    };
  }

  async function server(site: SiteConfigRow | undefined): Promise<MailServer | undefined> {
    if (site?.mail_host) return siteServer(site);
    const email = await getSysSection(db, 'email');
    if (email.open && email.host) {
      return { host: email.host, port: email.port, user: email.user_name, password: email.password ? secrets.decrypt(email.password) : '', fromName: email.from_name, untrusted: false };
    }
    return undefined;
  }

  async function transport(s: MailServer): Promise<Transporter> {
    // Checked on every send (DNS may change); the transport is kept per checked address.
    const pinned = s.untrusted ? (await resolvePublicHost(s.host, privateAllow)).address : undefined;
    const key = JSON.stringify([s, pinned]);
    let t = transports.get(key);
    if (!t) {
      // The name stays for TLS when the connection goes to the checked address.
      const servername = pinned && !net.isIP(s.host) ? s.host : undefined;
      // nodemailer is loaded with the first mail, not at start (most processes never send any).
      const { default: nodemailer } = await import('nodemailer');
      t = nodemailer.createTransport({
        host: pinned ?? s.host,
        ...(servername ? { servername, tls: { servername } } : {}),
        port: s.port,
        secure: s.port === 465,
        auth: s.user ? { user: s.user, pass: s.password } : undefined,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      });
      transports.set(key, t);
    }
    return t;
  }

  async function deliver(s: MailServer, mail: Omit<Mail, 'site'>): Promise<void> {
    const from = s.user.includes('@') ? s.user : `no-reply@${s.host}`;
    await (await transport(s)).sendMail({ from: s.fromName ? { name: s.fromName, address: from } : from, to: mail.to, subject: mail.subject, text: mail.text });
  }

  return {
    async send(mail) {
      const s = await server(mail.site);
      if (!s) {
        log.info({ to: mail.to, subject: mail.subject }, `no mail server configured; mail not sent: ${mail.text}`);
        return false;
      }
      await deliver(s, mail);
      return true;
    },
    async sendThroughSite(site, mail) {
      await deliver(await siteServer(site), mail);
    },
    close() {
      for (const t of transports.values()) t.close();
      transports.clear();
    },
  };
}
