import { SYS_CONFIG_DEFAULTS } from '@fastgate/core/sys-config';
import { describe, expect, it } from 'vitest';
import { classify, retryBudget } from './classify';

const e = (status: number, message = 'x', code: string | null = null) => ({ status, message, code, type: 'error' });

describe('classify', () => {
  it('decides by status first', () => {
    expect(classify(e(500), SYS_CONFIG_DEFAULTS)).toEqual({ retry: true, disable: false });
    expect(classify(e(429), SYS_CONFIG_DEFAULTS)).toEqual({ retry: true, disable: false, coolMs: 5000 });
    expect(classify(e(0, 'connection reset'), SYS_CONFIG_DEFAULTS)).toEqual({ retry: true, disable: false });
    expect(classify(e(401), SYS_CONFIG_DEFAULTS)).toEqual({ retry: true, disable: true });
    expect(classify(e(429, 'You exceeded your current quota', 'insufficient_quota'), SYS_CONFIG_DEFAULTS)).toEqual({ retry: true, disable: true });
    expect(classify(e(400, 'bad'), SYS_CONFIG_DEFAULTS)).toEqual({ retry: false, disable: false });
  });
  it('cools a key for as long as the upstream asked (429s always, 5xx when they say), within bounds', () => {
    expect(classify({ ...e(429), retryAfterMs: 7000 }, SYS_CONFIG_DEFAULTS)).toEqual({ retry: true, disable: false, coolMs: 7000 });
    expect(classify({ ...e(429), retryAfterMs: 86_400_000 }, SYS_CONFIG_DEFAULTS).coolMs).toBe(600_000);
    expect(classify({ ...e(503), retryAfterMs: 2000 }, SYS_CONFIG_DEFAULTS)).toEqual({ retry: true, disable: false, coolMs: 2000 });
    expect(classify(e(503), SYS_CONFIG_DEFAULTS).coolMs).toBeUndefined();
    // A quota 429 disables the key instead.
    expect(classify({ ...e(429, 'quota', 'insufficient_quota'), retryAfterMs: 1000 }, SYS_CONFIG_DEFAULTS)).toEqual({ retry: true, disable: true });
  });
  it('lets the configured texts override', () => {
    expect(classify(e(500, "This model's maximum context length is 8192"), SYS_CONFIG_DEFAULTS).retry).toBe(false);
    const sys = { ...SYS_CONFIG_DEFAULTS, auto_disabled_error: { open: true, errors: ['organization suspended'] } };
    expect(classify(e(400, 'Organization Suspended'), sys)).toEqual({ retry: true, disable: true });
    expect(classify(e(400, 'Organization Suspended'), { ...sys, auto_disabled_error: { open: false, errors: ['organization suspended'] } }).disable).toBe(false);
  });
  it('counts retries', () => {
    expect(retryBudget(3, 1)).toBe(3);
    expect(retryBudget(0, 5)).toBe(0);
    expect(retryBudget(-1, 4)).toBe(3);
  });
});
