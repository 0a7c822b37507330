import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, isCalendarDate, lastDays, startOfToday, statDateOf } from './dates';

describe('stat dates', () => {
  it('dates an instant by its zone’s midnight, also across half-hour offsets and DST', () => {
    expect(statDateOf(Date.parse('2026-01-01T15:59:59.999Z'), 'Asia/Shanghai')).toBe('2026-01-01');
    expect(statDateOf(Date.parse('2026-01-01T16:00:00.000Z'), 'Asia/Shanghai')).toBe('2026-01-02');
    expect(statDateOf(Date.parse('2026-01-01T18:29:59.999Z'), 'Asia/Kolkata')).toBe('2026-01-01');
    expect(statDateOf(Date.parse('2026-01-01T18:30:00.000Z'), 'Asia/Kolkata')).toBe('2026-01-02');
    // New York: UTC−5 before 8 March 2026, UTC−4 after; midnight moves from 05:00Z to 04:00Z.
    expect(statDateOf(Date.parse('2026-03-08T04:59:59.999Z'), 'America/New_York')).toBe('2026-03-07');
    expect(statDateOf(Date.parse('2026-03-09T03:59:59.999Z'), 'America/New_York')).toBe('2026-03-08');
    expect(statDateOf(Date.parse('2026-03-09T04:00:00.000Z'), 'America/New_York')).toBe('2026-03-09');
  });

  it('does calendar arithmetic on stat dates', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(daysBetween('2026-01-01', '2026-01-01')).toBe(1);
    expect(daysBetween('2025-12-30', '2026-01-02')).toBe(4);
    expect(daysBetween('2026-01-02', '2026-01-01')).toBe(0);
    expect(isCalendarDate('2026-02-28')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2026-2-28')).toBe(false);
  });

  it('gives the last days up to today and today’s start in the zone', () => {
    const now = Date.parse('2026-01-01T16:30:00Z');
    expect(lastDays(3, 'Asia/Shanghai', now)).toEqual(['2025-12-31', '2026-01-01', '2026-01-02']);
    expect(startOfToday('Asia/Shanghai', now)).toBe(Date.parse('2026-01-01T16:00:00Z'));
    expect(startOfToday('UTC', now)).toBe(Date.parse('2026-01-01T00:00:00Z'));
  });
});
