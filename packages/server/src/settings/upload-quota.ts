// Uploads per owner (issue 11, finding 8): every stored file is a row of `uploads`, so a reseller's files
// and bytes stay within the system config's `sites` quota (admins are not limited), and files no site
// config references are deleted — only after a grace period, so an image uploaded into a form that is
// not saved yet survives until the form is.
import fs from 'node:fs';
import path from 'node:path';
import { ErrorCode } from '@fastgate/core/constants';
import type { Ctx } from '../context';
import { AppError } from '../http/errors';
import { getSysSection } from './sys-config';
import { isUploadName, newUploadName, UPLOAD_NAME, uploadDir, writeUpload, type UploadExt } from './uploads';

export const UPLOAD_GRACE_MS = 24 * 3_600_000;
const MB = 1024 * 1024;
const NAME_IN_TEXT = new RegExp(`/uploads/(${UPLOAD_NAME})`, 'g');

/**
 * Stores an uploaded file for `userId` and returns its URL. The row is written first, in a transaction
 * that holds the owner's place (its users row locked on PostgreSQL; SQLite runs one transaction at a
 * time), so parallel uploads are counted one after another and none slips past the quota; the file
 * follows, and leaves no row behind when it cannot be written.
 */
export async function storeCountedUpload(ctx: Ctx, owner: { userId: number; limited: boolean }, ext: UploadExt, data: Buffer): Promise<string> {
  const { upload_max_files: files, upload_max_mb: mb } = await getSysSection(ctx.db, 'sites');
  const name = newUploadName(ext);
  const stored = await ctx.db.transaction().execute(async (trx) => {
    if (ctx.dialect === 'postgres') await trx.selectFrom('users').select('user_id').where('user_id', '=', owner.userId).forUpdate().execute();
    if (owner.limited && (files || mb)) {
      const used = await trx
        .selectFrom('uploads')
        .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string | null>('bytes').as('bytes')])
        .where('user_id', '=', owner.userId)
        .executeTakeFirstOrThrow();
      if ((files && Number(used.n) + 1 > files) || (mb && Number(used.bytes ?? 0) + data.length > mb * MB)) return false;
    }
    await trx.insertInto('uploads').values({ name, user_id: owner.userId, bytes: data.length, created_at: Date.now() }).execute();
    return true;
  });
  if (!stored) throw new AppError(ErrorCode.Business, 'upload.quota', { files, mb, hours: UPLOAD_GRACE_MS / 3_600_000 });
  try {
    return await writeUpload(ctx.config.dataDir, name, data);
  } catch (err) {
    await ctx.db.deleteFrom('uploads').where('name', '=', name).execute();
    throw err;
  }
}

/** Upload names a stored text mentions (`/uploads/<name>`, as image fields and lists keep them). */
function uploadNamesIn(text: string): string[] {
  return [...text.matchAll(NAME_IN_TEXT)].map((m) => m[1]!);
}

/** Every upload some site config mentions, in any of its text fields (skipping `exceptIds`). */
async function referencedUploads(ctx: Ctx, exceptIds: readonly string[]): Promise<Set<string>> {
  let q = ctx.db.selectFrom('site_configs').selectAll();
  if (exceptIds.length) q = q.where('id', 'not in', exceptIds);
  const names = new Set<string>();
  for (const row of await q.execute()) {
    for (const value of Object.values(row)) if (typeof value === 'string') for (const name of uploadNamesIn(value)) names.add(name);
  }
  return names;
}

export interface CleanOptions {
  now?: number;
  /** Only this owner's uploads (after a save of its site config); all owners when absent. */
  userId?: number;
  /** Site configs about to be deleted: what only they reference counts as unreferenced. */
  exceptIds?: readonly string[];
}

/**
 * Deletes the uploads no site config references that are older than the grace period; returns how many.
 * The full run (no `userId`, the housekeeping job) also removes unreferenced files that have no row —
 * stored before uploads were counted, or left by a crash — judged by their modification time.
 */
export async function cleanUploads(ctx: Ctx, opts: CleanOptions = {}): Promise<number> {
  const cutoff = (opts.now ?? Date.now()) - UPLOAD_GRACE_MS;
  const dir = uploadDir(ctx.config.dataDir);
  let old = ctx.db.selectFrom('uploads').select('name').where('created_at', '<', cutoff);
  if (opts.userId !== undefined) old = old.where('user_id', '=', opts.userId);
  const candidates = new Set((await old.execute()).map((r) => r.name));
  if (opts.userId === undefined) {
    const counted = new Set((await ctx.db.selectFrom('uploads').select('name').execute()).map((r) => r.name));
    const files = await fs.promises.readdir(dir).catch(() => [] as string[]);
    for (const name of files) {
      if (!isUploadName(name) || counted.has(name)) continue;
      const stat = await fs.promises.stat(path.join(dir, name)).catch(() => undefined);
      if (stat && stat.mtimeMs < cutoff) candidates.add(name);
    }
  }
  if (!candidates.size) return 0;
  const referenced = await referencedUploads(ctx, opts.exceptIds ?? []);
  const gone = [...candidates].filter((name) => !referenced.has(name));
  for (const name of gone) await fs.promises.rm(path.join(dir, name), { force: true });
  for (let i = 0; i < gone.length; i += 500) await ctx.db.deleteFrom('uploads').where('name', 'in', gone.slice(i, i + 500)).execute();
  return gone.length;
}
