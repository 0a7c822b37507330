// The limits apps and keys carry (docs/ORIGINAL-API.md §3.2–3.4): quota, expiry, IP lists, model restrictions.
import { z } from 'zod';
import { parseIpList } from '../ip-list';
import { usdToQuota } from '../money';
import { INT4_MAX, idField } from './common';
import { intField } from './encodings';

/** Integer quota units (docs/SPEC.md §9); never negative, exact up to 2^53. */
export const quotaField = intField(0, Number.MAX_SAFE_INTEGER);

/** Page filter in dollars meaning "quota below this" (docs/ORIGINAL-API.md §2.5); converted to units once, here. */
export const usdBelowFilter = z
  .union([z.number().min(0), z.string().trim().regex(/^(\d+(\.\d*)?)?$/)])
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : usdToQuota(Number(v))))
  // Past any balance (and PostgreSQL's bigint): refused here, not by the database.
  .refine((v) => v === undefined || Number.isSafeInteger(v), `<= ${Number.MAX_SAFE_INTEGER}`);

/** A real calendar time: "2031-13-45" matches the pattern but is no date. */
function isCalendarTime(text: string): boolean {
  if (!text) return true;
  const [y, mo, d, h = 0, mi = 0, s = 0] = text.split(/[- :]/).map(Number) as number[];
  const t = new Date(Date.UTC(y!, mo! - 1, d!, h, mi, s));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo! - 1 && t.getUTCDate() === d && t.getUTCHours() === h && t.getUTCMinutes() === mi && t.getUTCSeconds() === s;
}

/** "YYYY-MM-DD HH:mm:ss" (or a bare date); "" or null = never (docs/ORIGINAL-API.md §2.10). */
export const expiresAtField = z
  .union([
    z
      .string()
      .trim()
      .regex(/^(\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?)?$/, 'field.expires_at')
      .refine(isCalendarTime, 'field.expires_at'),
    z.null(),
  ])
  .transform((v) => v ?? '');

/** Ids of catalogue records (models, agents); the server checks they exist. */
export const idListField = z.array(idField).max(1000);

/**
 * IP lists are newline strings on input (arrays are accepted too, so a client can send back what it
 * read) and normalized arrays on output. A bad line fails the field with that line as the detail.
 */
export const ipListField = z
  .union([z.string().max(50_000), z.array(z.string().max(100)).max(1000), z.null()])
  .transform((v, ctx) => {
    const r = parseIpList(v ?? '');
    if (r.ok) return r.list;
    ctx.addIssue({ code: 'custom', message: r.line.slice(0, 100) });
    return z.NEVER;
  });

/** Numeric `user_id` / `app_id` filters: a number or digits; 0 or "" = no filter. */
export const ownerIdFilter = z
  .union([z.number().int().min(0).max(INT4_MAX), z.string().trim().regex(/^\d{0,15}$/)])
  .optional()
  .transform((v) => (v === undefined || v === '' || Number(v) === 0 ? undefined : Number(v)))
  .refine((v) => v === undefined || v <= INT4_MAX, `<= ${INT4_MAX}`);

/** A record's owner on create: A/R name it, a user's own id is implied (docs/ORIGINAL-API.md §3.2). */
export const ownerIdField = intField(1, INT4_MAX);

/** One id or several: `models` filters match records holding any of them. */
export const idsFilter = z
  .union([idField, idListField, z.literal('')])
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : typeof v === 'string' ? [v] : v.length ? v : undefined));
