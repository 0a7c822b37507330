// A reseller's floor (issue 13): its groups and VIP levels cannot be priced below it. The group and VIP
// forms check it with the server's own message (core 'pricing.below_floor') and say what it is; the
// server checks again (an admin editing a reseller's row is checked there only).
import type { RulesProps } from '@arco-design/web-react';
import { tm } from '../locale';
import { useUserStore } from '../stores/user';

/** The signed-in reseller's floor in percent (0 for other roles), the discount rule it implies and a hint. */
export function useDiscountFloor(): { floor: number; rule: RulesProps; hint?: string } {
  const fraction = useUserStore((s) => (s.info?.role === 'reseller' ? (s.info.floor ?? 1) : 0));
  const floor = Math.round(fraction * 10_000) / 100;
  const rule: RulesProps = {
    validator: (value: unknown, callback: (error?: string) => void) => (typeof value === 'number' && value < floor ? callback(tm('pricing.below_floor', { floor })) : callback()),
  };
  return { floor, rule, hint: floor > 0 ? tm('pricing.floor_hint', { floor }) : undefined };
}
