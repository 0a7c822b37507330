// A reseller's floor (issue 13): its cost price as a discount in basis points (10000 = list price). A
// reseller's users top up with quota the reseller bought and spend it at their group's (and VIP
// level's) discount, so a discount below the floor makes the platform pay upstreams for quota nobody
// paid for — at 0, calls are free. The console refuses such groups and levels; the gateway bills below
// the floor never, whatever rows are stored (older rows, a floor raised later, group × VIP stacking).
export const FULL_PRICE_BP = 10_000;

/**
 * The discount a call is billed at: the group's (none = list price), the VIP level's stacked on it
 * (a level at 0 or 100 % changes nothing), then never below the reseller's floor (0 = no reseller).
 */
export function billedDiscount(groupBp: number, vipBp: number | undefined, floorBp: number): number {
  const stacked = vipBp !== undefined && vipBp > 0 && vipBp < FULL_PRICE_BP ? Math.ceil((groupBp * vipBp) / FULL_PRICE_BP) : groupBp;
  return Math.max(stacked, floorBp);
}

/**
 * What a call charged `totalPrice` at `discountBp` costs its reseller at `floorBp`: the same list price
 * at the floor, total × floor / discount rounded up (the call's own price was rounded up once too, so
 * this is at most one unit above the exact figure). BigInt: the product may pass 2^53.
 */
export function floorCost(totalPrice: number, discountBp: number, floorBp: number): number {
  if (floorBp <= 0 || totalPrice <= 0) return 0;
  if (discountBp <= floorBp) return totalPrice;
  return Number((BigInt(totalPrice) * BigInt(floorBp) + BigInt(discountBp) - 1n) / BigInt(discountBp));
}
