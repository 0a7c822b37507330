import { QUOTA_PER_USD } from './constants';

/** Quota units → dollars, for display only (docs/SPEC.md §9). */
export function quotaToUsd(quota: number): number {
  return quota / QUOTA_PER_USD;
}

/** Dollars → integer quota units, converted once at the edge (rounded to the nearest unit). */
export function usdToQuota(usd: number): number {
  return Math.round(usd * QUOTA_PER_USD);
}

/** A token ratio (quota units per token) as dollars per 1M tokens, as the console shows prices. */
export function ratioToUsdPer1M(ratio: number): number {
  return Number(((ratio * 1_000_000) / QUOTA_PER_USD).toPrecision(12));
}

/** Dollars per 1M tokens → the ratio the server stores. */
export function usdPer1MToRatio(usd: number): number {
  return Number(((usd * QUOTA_PER_USD) / 1_000_000).toPrecision(12));
}

/** "$1.234567" style preview of a quota amount: 6 decimals, trailing zeros dropped. */
export function formatUsd(quota: number): string {
  const usd = quotaToUsd(quota);
  return `$${Number(usd.toFixed(6)).toString()}`;
}
