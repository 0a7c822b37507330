// How apps and app keys store the limits they share (docs/ORIGINAL-API.md §3.2, §3.3): id and IP lists as JSON
// arrays, switches as 0/1, rate limits as JSON holding only the positive ones. The bound group
// (`group` → `group_id`) and the expiry (wire time → epoch ms in the server's time zone) are the
// server's to convert (console/usage-limits.ts).
import { flag, ids, parseJson, type Codec } from '../resource';
import type { RateLimits } from './catalogue';

/** An id list stored once per id. */
const idSet: Codec<string[], string> = { encode: (v) => JSON.stringify([...new Set(v ?? [])]), decode: ids.decode };

/** Only positive limits are kept: 0 means unlimited (docs/SPEC.md §5), and the gateway checks only what limits. */
const rateLimitsColumn: Codec<Partial<RateLimits> | undefined, string> = {
  encode: (l) => JSON.stringify(Object.fromEntries(Object.entries(l ?? {}).filter(([, v]) => Number(v) > 0))),
  decode: (s) => parseJson<Partial<RateLimits>>(s, {}),
};

export const limitColumns = {
  models: idSet,
  is_bind_group: flag,
  is_limit_quota: flag,
  /** Normalized IP entries (strings), like ids. */
  ip_whitelist: ids,
  ip_blacklist: ids,
  rate_limits: rateLimitsColumn,
};

/** Input fields that are not columns as they are: the server stores them as `group_id` and epoch ms. */
export const LIMIT_VIRTUAL = ['group', 'quota_expires_at'] as const;
