// Public shapes of the rate limiter (docs/SPEC.md §3.13 "Common fields", docs/ORIGINAL-GATEWAY.md §3 and §7.7).
// The gateway builds one scope per level that carries limits (key, app, user, group, VIP) and asks
// admit() once per request; the strictest window of any scope decides.

/** Request windows: counted by admit(). */
type RequestLimitName = 'rps' | 'rpm' | 'rpd';
/**
 * Per-client-IP request windows: "requests per client IP per second/minute/day within that scope",
 * i.e. `{ scope: 'app:12', limits: { ipm: 30 } }` lets every client IP make 30 requests a minute
 * through app 12, independently of the other IPs. Counted by admit() like the request windows.
 */
type IpLimitName = 'ips' | 'ipm' | 'ipd';
/** Token windows: charged by addTokens() after a call; admit() refuses while one is at or over its limit. */
type TokenLimitName = 'tps' | 'tpm' | 'tpd';
export type LimitName = RequestLimitName | IpLimitName | TokenLimitName;

/** Absent, null, 0 (or anything not a positive number) = unlimited (docs/SPEC.md §5). */
export type ScopeLimits = Partial<Record<LimitName, number | null>>;

export interface LimitScope {
  /** Stable id of the counter owner, e.g. `key:<id>`, `app:12`, `user:7`, `group:<id>`, `vip:<id>`. */
  scope: string;
  limits: ScopeLimits;
}

export type AdmitResult =
  | {
      ok: true;
      /**
       * Gives the request back (un-counts it from every request window it was counted in), for a
       * request refused after admission for another reason (e.g. no agent available). Idempotent.
       * Absent when nothing was counted (no request or IP window configured).
       */
      release?: () => Promise<void>;
    }
  | {
      ok: false;
      /** The scope and window that blocks longest (all blocking windows must clear before a retry). */
      scope: string;
      limit: LimitName;
      /** Milliseconds until this admission would succeed if nothing else were counted meanwhile. */
      retryAfterMs: number;
    };

export interface RateLimiter {
  /**
   * Counts one request in every request and IP window of every scope, all or nothing: if any window
   * is full (or any token window is at or over its limit) nothing is counted and the result says why.
   */
  admit(scopes: readonly LimitScope[], clientIp: string, now?: number): Promise<AdmitResult>;
  /** Charges a finished call's prompt + completion tokens to the token windows of every scope. */
  addTokens(scopes: readonly LimitScope[], tokens: number, now?: number): Promise<void>;
  /** Stops background work; the Redis limiter does not close the connection it was given. */
  close(): Promise<void>;
}

/** HTTP `retry-after` value (whole seconds, at least 1) for a refusal. */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}
