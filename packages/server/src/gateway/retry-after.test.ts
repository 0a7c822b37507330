import { describe, expect, it } from 'vitest';
import { goDurationMs, retryAfterMs } from './retry-after';

const NOW = Date.parse('2025-03-01T12:00:00Z');

describe('retryAfterMs', () => {
  it('prefers retry-after-ms, then retry-after in seconds or as a date', () => {
    expect(retryAfterMs({ 'retry-after-ms': '1500', 'retry-after': '7' }, NOW)).toBe(1500);
    expect(retryAfterMs({ 'retry-after': '7' }, NOW)).toBe(7000);
    expect(retryAfterMs({ 'retry-after': '0.5' }, NOW)).toBe(500);
    expect(retryAfterMs({ 'retry-after': 'Sat, 01 Mar 2025 12:00:09 GMT' }, NOW)).toBe(9000);
    // A date in the past: no wait.
    expect(retryAfterMs({ 'retry-after': 'Sat, 01 Mar 2025 11:00:00 GMT' }, NOW)).toBe(0);
    expect(retryAfterMs({ 'retry-after': ['3', '9'] }, NOW)).toBe(3000);
  });

  it('reads the reset of the spent rate-limit window, else the shortest reset', () => {
    const openai = { 'x-ratelimit-reset-requests': '20s', 'x-ratelimit-reset-tokens': '6m0s' };
    expect(retryAfterMs({ ...openai, 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-remaining-tokens': '900' }, NOW)).toBe(20_000);
    expect(retryAfterMs({ ...openai, 'x-ratelimit-remaining-requests': '10', 'x-ratelimit-remaining-tokens': '0' }, NOW)).toBe(360_000);
    expect(retryAfterMs({ ...openai, 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-remaining-tokens': '0' }, NOW)).toBe(360_000);
    expect(retryAfterMs(openai, NOW)).toBe(20_000);
    expect(retryAfterMs({ 'anthropic-ratelimit-tokens-remaining': '0', 'anthropic-ratelimit-tokens-reset': '2025-03-01T12:00:30Z', 'anthropic-ratelimit-requests-reset': '2025-03-01T12:00:02Z' }, NOW)).toBe(30_000);
  });

  it('says nothing for absent or unreadable headers', () => {
    expect(retryAfterMs({}, NOW)).toBeUndefined();
    expect(retryAfterMs({ 'retry-after': 'soon', 'retry-after-ms': '-5', 'x-ratelimit-reset-requests': '1 minute' }, NOW)).toBeUndefined();
  });
});

describe('goDurationMs', () => {
  it('reads Go durations', () => {
    expect(goDurationMs('1h2m3.5s')).toBe(3_723_500);
    expect(goDurationMs('20ms')).toBe(20);
    expect(goDurationMs('6m0s')).toBe(360_000);
    expect(goDurationMs('1.5')).toBeUndefined();
    expect(goDurationMs('')).toBeUndefined();
  });
});
