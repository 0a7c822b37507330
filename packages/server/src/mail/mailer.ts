// Outgoing mail through nodemailer: the mail server of the domain's site config, else the system
// config's email section, else none — then the message is written to the server log (README says so).
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db/schema';
import type { Secrets } from '../security/secrets';
import { getSysSection } from '../settings/sys-config';
import { findSiteConfig } from '../settings/site-config';

export interface MailServer {
  host: string;
  port: number;
  user: string;
  password: string;
  fromName: string;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  domain?: string;
}

export interface Mailer {
  /** true when handed to a mail server, false when only logged (no server configured). */
  send(mail: Mail): Promise<boolean>;
  close(): void;
}

export function createMailer(db: DB, secrets: Secrets, log: FastifyBaseLogger): Mailer {
  const transports = new Map<string, Transporter>();

  async function server(domain: string | undefined): Promise<MailServer | undefined> {
    const site = await findSiteConfig(db, domain);
    if (site?.mail_host) {
      return { host: site.mail_host, port: site.mail_port || 465, user: site.mail_user_name, password: secrets.decrypt(site.mail_password), fromName: site.mail_from_name };
    }
    const email = await getSysSection(db, 'email');
    if (email.open && email.host) {
      return { host: email.host, port: email.port, user: email.user_name, password: email.password ? secrets.decrypt(email.password) : '', fromName: email.from_name };
    }
    return undefined;
  }

  async function transport(s: MailServer): Promise<Transporter> {
    const key = JSON.stringify(s);
    let t = transports.get(key);
    if (!t) {
      // nodemailer is loaded with the first mail, not at start (most processes never send any).
      const { default: nodemailer } = await import('nodemailer');
      t = nodemailer.createTransport({
        host: s.host,
        port: s.port,
        secure: s.port === 465,
        auth: s.user ? { user: s.user, pass: s.password } : undefined,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
      });
      transports.set(key, t);
    }
    return t;
  }

  return {
    async send(mail) {
      const s = await server(mail.domain);
      if (!s) {
        log.info({ to: mail.to, subject: mail.subject }, `no mail server configured; mail not sent: ${mail.text}`);
        return false;
      }
      const from = s.user.includes('@') ? s.user : `no-reply@${s.host}`;
      await (await transport(s)).sendMail({ from: s.fromName ? { name: s.fromName, address: from } : from, to: mail.to, subject: mail.subject, text: mail.text });
      return true;
    },
    close() {
      for (const t of transports.values()) t.close();
      transports.clear();
    },
  };
}
