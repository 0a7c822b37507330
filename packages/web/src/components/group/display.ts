// How a group's discount and rate limits read (docs/ORIGINAL-API.md §3.8): the group, VIP and "my group" screens share it.
import type { RateLimits } from '@fastgate/core/entities/catalogue';

/** Wire fraction (0.8) → the percent a person reads and types (80); 0.01 % steps, as stored. */
export function discountPercent(fraction: number): number {
  return Math.round(fraction * 10_000) / 100;
}

/** Requests, tokens, and requests per client IP; each per second, minute and day. */
export const RATE_LIMIT_KEYS = ['rps', 'rpm', 'rpd', 'tps', 'tpm', 'tpd', 'ips', 'ipm', 'ipd'] as const satisfies readonly (keyof RateLimits)[];
