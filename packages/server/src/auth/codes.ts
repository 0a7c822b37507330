// Verification codes (docs/ORIGINAL-API.md §4): 6 digits, valid 15 minutes, at most 5 sends per address per
// 30 minutes, void after 5 wrong tries. Stored hashed; DB-backed so every instance agrees.
import { t } from '@fastgate/core/messages';
import type { Locale } from '@fastgate/core/constants';
import type { Ctx } from '../context';
import type { SiteConfigRow } from '../db/schema';
import { businessError } from '../http/errors';
import { newId } from '../http/ids';
import { randomDigits, sha256 } from '../security/tokens';

const CODE_TTL_MS = 15 * 60_000;
const SEND_WINDOW_MS = 30 * 60_000;
const MAX_SENDS = 5;
const MAX_TRIES = 5;

const codeHash = (id: string, code: string) => sha256(`${id}:${code}`);

export interface CodeRequest {
  target: string;
  action: string;
  channel: string;
  locale: Locale;
  /** email: mailed; sms: no SMS provider exists yet, so the code is written to the server log. */
  kind: 'email' | 'sms';
  /**
   * Whether the code reaches anyone. A request that must not (a recovery code for an unknown account,
   * a registration code for a taken address) runs the same steps and gets the same answer, so the
   * answer says nothing about which addresses have accounts.
   */
  deliver: boolean;
  /** The approved site whose own mail server may send it (see mail/route.ts); absent: the platform's. */
  site?: SiteConfigRow;
}

/**
 * Stores a new code and hands its mail to the mailer in the background: the caller's answer is the
 * same whether the mail goes out, fails (a mail server that is down) or is never sent.
 */
export async function sendCode(ctx: Ctx, req: CodeRequest): Promise<void> {
  const now = Date.now();
  const target = req.target.toLowerCase();
  const recent = await ctx.db
    .selectFrom('verify_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('target', '=', target)
    .where('created_at', '>', now - SEND_WINDOW_MS)
    .executeTakeFirstOrThrow();
  if (Number(recent.n) >= MAX_SENDS) throw businessError('code.too_many_sends');

  const id = newId();
  const code = randomDigits(6);
  // A new code replaces any earlier one for the same purpose.
  await ctx.db.updateTable('verify_codes').set({ consumed: 1 }).where('target', '=', target).where('action', '=', req.action).where('channel', '=', req.channel).execute();
  await ctx.db
    .insertInto('verify_codes')
    .values({ id, target, action: req.action, channel: req.channel, code_hash: codeHash(id, code), attempts: 0, consumed: 0, expires_at: now + CODE_TTL_MS, created_at: now })
    .execute();

  if (!req.deliver) return;
  if (req.kind === 'sms') {
    ctx.log.info({ phone: target, action: req.action }, `no SMS provider configured; verification code ${code}`);
    return;
  }
  const mail = { to: target, subject: t('code.mail_subject', req.locale), text: t('code.mail_body', req.locale, { code }), site: req.site };
  void ctx.mailer.send(mail).catch(async (err: unknown) => {
    ctx.log.error({ err: String(err), to: target, site: req.site?.domain }, 'sending a verification code failed');
    await ctx.db.updateTable('verify_codes').set({ consumed: 1 }).where('id', '=', id).execute().catch(() => undefined);
  });
}

/** Consumes the code when it matches; counts a wrong try otherwise. */
export async function verifyCode(ctx: Ctx, target: string, action: string, channel: string, code: string | undefined): Promise<boolean> {
  if (!code) return false;
  const now = Date.now();
  const row = await ctx.db
    .selectFrom('verify_codes')
    .selectAll()
    .where('target', '=', target.toLowerCase())
    .where('action', '=', action)
    .where('channel', '=', channel)
    .where('consumed', '=', 0)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return false;
  if (row.code_hash === codeHash(row.id, code)) {
    // Only one request may consume it.
    const res = await ctx.db.updateTable('verify_codes').set({ consumed: 1 }).where('id', '=', row.id).where('consumed', '=', 0).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
  const attempts = row.attempts + 1;
  await ctx.db.updateTable('verify_codes').set({ attempts, consumed: attempts >= MAX_TRIES ? 1 : 0 }).where('id', '=', row.id).execute();
  return false;
}
