// What a failed attempt means (docs/ORIGINAL-GATEWAY.md §1.9, done better per §7): decided by the HTTP status
// and error code first, with the system config's error texts as overrides, not the other way round.
import type { SysConfig } from '@fastgate/core/sys-config';
import type { UpstreamError } from '../providers/types';

export interface Verdict {
  /** Try another key or agent. */
  retry: boolean;
  /** Take the key out of rotation (auto-disable). */
  disable: boolean;
  /** The upstream asked to wait: the key is not picked for this long (issue 13). */
  coolMs?: number;
}

/** A 429 that does not say how long: a few seconds, so the key is not asked again at once. */
const DEFAULT_COOL_MS = 5_000;
/** An upstream asking for longer is asked again after this (it can say wait again). */
const MAX_COOL_MS = 600_000;

const QUOTA_CODES = new Set(['insufficient_quota', 'billing_hard_limit_reached', 'account_deactivated', 'invalid_api_key']);

function listed(section: { open: boolean; errors: string[] }, text: string): boolean {
  if (!section.open) return false;
  const t = text.toLowerCase();
  return section.errors.some((e) => e && t.includes(e.toLowerCase()));
}

/** `status` 0 = no HTTP answer (timeout, reset, DNS). */
export function classify(error: UpstreamError, sys: Pick<SysConfig, 'auto_disabled_error' | 'not_retry_error'>): Verdict {
  const text = `${error.code ?? ''} ${error.message}`;
  if (listed(sys.not_retry_error, text)) return { retry: false, disable: false };
  const keyDead = error.status === 401 || error.status === 403 || QUOTA_CODES.has(error.code ?? '') || listed(sys.auto_disabled_error, text);
  if (keyDead) return { retry: true, disable: true };
  if (error.status === 429) return { retry: true, disable: false, coolMs: Math.min(MAX_COOL_MS, error.retryAfterMs ?? DEFAULT_COOL_MS) };
  // A 503 (or any 5xx) that says when to come back is heard too.
  if (error.status >= 500 && error.retryAfterMs !== undefined) return { retry: true, disable: false, coolMs: Math.min(MAX_COOL_MS, error.retryAfterMs) };
  if (error.status === 0 || error.status === 408 || error.status === 409 || error.status >= 500) return { retry: true, disable: false };
  // 400, 404, 413, 422…: the request itself is wrong; another key would answer the same.
  return { retry: false, disable: false };
}

/** How many retries a request gets (docs/ORIGINAL-GATEWAY.md §1.10): N > 0 → N; 0 → none; N < 0 → one per other candidate key. */
export function retryBudget(errRetry: number, candidateKeys: number): number {
  if (errRetry > 0) return errRetry;
  if (errRetry === 0) return 0;
  return Math.max(0, candidateKeys - 1);
}
