// The console half of a reseller's floor (billing/floor.ts): a group or VIP level a reseller owns may
// not be priced below it. Checked on every create and update, so a row left below a floor raised
// later must come up to it on its next edit (the gateway bills it at the floor meanwhile).
import { ErrorCode } from '@fastgate/core/constants';
import { discountToBp } from '@fastgate/core/entities/group';
import { ADMIN_OWNER } from '../catalogue/owners';
import type { Ctx } from '../context';
import { AppError } from '../http/errors';

/** Refuses `discount` (percent paid) for a row of `owner` when it is below the owner's floor; admin rows have none. */
export async function requireAtFloor(ctx: Ctx, owner: number, discount: number): Promise<void> {
  if (owner === ADMIN_OWNER) return;
  const row = await ctx.db.selectFrom('users').select('floor_bp').where('user_id', '=', owner).where('role', '=', 'reseller').executeTakeFirst();
  if (row && discountToBp(discount) < row.floor_bp) throw new AppError(ErrorCode.Validation, 'pricing.below_floor', { field: 'discount', floor: row.floor_bp / 100 });
}
