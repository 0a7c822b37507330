import { describe, expect, it } from 'vitest';
import { availability, claim, newEntry, record, windowSums, slotOf } from './policy';
import type { BreakerSettings } from './types';

const S: BreakerSettings = { errorRatePct: 50, minCalls: 4, cooldownMs: 1000, windowMs: 60_000 };
const T = 1_700_000_000_000;

describe('breaker policy', () => {
  it('opens at the error rate once enough calls were seen, not before', () => {
    const e = newEntry();
    record(e, { kind: 'fail', probe: false }, S, T);
    record(e, { kind: 'fail', probe: false }, S, T);
    record(e, { kind: 'ok', probe: false }, S, T);
    expect(e.state).toBe('closed');
    record(e, { kind: 'fail', probe: false }, S, T + 1);
    expect(e).toMatchObject({ state: 'open', retryAt: T + 1 + 1000, backoff: 1000 });
    expect(availability(e, T + 500)).toEqual({ ok: false, until: T + 1001, cooling: false });
    expect(availability(e, T + 1001)).toEqual({ ok: true, probe: true });
  });

  it('stays closed below the rate, and never opens when held', () => {
    const e = newEntry();
    for (let i = 0; i < 6; i++) record(e, { kind: 'ok', probe: false }, S, T);
    for (let i = 0; i < 5; i++) record(e, { kind: 'fail', probe: false }, S, T);
    expect(e.state).toBe('closed');
    const held = newEntry();
    for (let i = 0; i < 10; i++) record(held, { kind: 'fail', probe: false, hold: true }, S, T);
    expect(held.state).toBe('closed');
    expect(windowSums(held.counts, slotOf(T, S.windowMs))).toEqual({ calls: 10, failures: 10 });
  });

  it("opens an agent only when its failures come from enough different keys", () => {
    const e = newEntry();
    for (let i = 0; i < 6; i++) record(e, { kind: 'fail', probe: false, key: 'a', keysNeeded: 2 }, S, T);
    expect(e.state).toBe('closed');
    record(e, { kind: 'fail', probe: false, key: 'b', keysNeeded: 2 }, S, T);
    expect(e.state).toBe('open');
    // An agent with one key: that key is enough.
    const single = newEntry();
    for (let i = 0; i < 4; i++) record(single, { kind: 'fail', probe: false, key: 'a', keysNeeded: 1 }, S, T);
    expect(single.state).toBe('open');
  });

  it('forgets calls that left the window', () => {
    const e = newEntry();
    for (let i = 0; i < 3; i++) record(e, { kind: 'fail', probe: false }, S, T);
    // A minute later the three failures are gone: one more is not enough.
    record(e, { kind: 'fail', probe: false }, S, T + 61_000);
    expect(e.state).toBe('closed');
    expect(windowSums(e.counts, slotOf(T + 61_000, S.windowMs))).toEqual({ calls: 1, failures: 1 });
  });

  it('lets one probe through; its success closes, its failure doubles the wait', () => {
    const e = newEntry();
    for (let i = 0; i < 4; i++) record(e, { kind: 'fail', probe: false }, S, T);
    expect(claim(e, 5000, T + 500)).toBe('busy');
    expect(claim(e, 5000, T + 1000)).toBe('probe');
    expect(e).toMatchObject({ state: 'half_open', probeUntil: T + 6000 });
    // A second request meanwhile is held back (and told to ask again soon).
    expect(claim(e, 5000, T + 1100)).toBe('busy');
    expect(availability(e, T + 1100)).toEqual({ ok: false, until: T + 2100, cooling: false });
    record(e, { kind: 'fail', probe: true }, S, T + 1200);
    expect(e).toMatchObject({ state: 'open', retryAt: T + 3200, backoff: 2000 });
    expect(claim(e, 5000, T + 3200)).toBe('probe');
    record(e, { kind: 'ok', probe: true }, S, T + 3300);
    expect(e).toMatchObject({ state: 'closed', backoff: 0 });
    expect(e.counts.size).toBe(0);
    expect(claim(e, 5000, T + 3400)).toBe('closed');
  });

  it('frees a probe that said nothing, and one that was lost', () => {
    const e = newEntry();
    for (let i = 0; i < 4; i++) record(e, { kind: 'fail', probe: false }, S, T);
    expect(claim(e, 5000, T + 1000)).toBe('probe');
    record(e, { kind: 'neutral', probe: true }, S, T + 1100);
    expect(claim(e, 5000, T + 1100)).toBe('probe');
    // Its instance died: past the lease another may probe.
    expect(claim(e, 5000, T + 6099)).toBe('busy');
    expect(claim(e, 5000, T + 6100)).toBe('probe');
    // An admin's test takes it whatever the wait.
    expect(claim(e, 5000, T + 6102, true)).toBe('probe');
  });

  it('cools a key for as long as asked, whatever its state', () => {
    const e = newEntry();
    record(e, { kind: 'fail', probe: false, coolMs: 7000, error: { status: 429, code: 'rate_limit_exceeded', message: 'wait' } }, S, T);
    expect(e.state).toBe('closed');
    expect(e.last).toEqual({ status: 429, code: 'rate_limit_exceeded', message: 'wait', at: T });
    expect(availability(e, T + 6999)).toEqual({ ok: false, until: T + 7000, cooling: true });
    expect(availability(e, T + 7000)).toEqual({ ok: true, probe: false });
    // A shorter wait later does not shorten it.
    record(e, { kind: 'fail', probe: false, coolMs: 1000 }, S, T + 10);
    expect(e.coolUntil).toBe(T + 7000);
  });
});
