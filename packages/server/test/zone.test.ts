// The product runs in its configured zone (src/zone.ts): Date's local time answers for it as Intl would,
// without the ~8 MB of ICU data a DateTimeFormat loads.
import { Cron } from 'croner';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { formatTime } from '../src/http/time';
import { cronZone, runInZone, zoneFields, type ZoneFields } from '../src/zone';

const TZ = process.env.TZ;
afterAll(() => {
  if (TZ === undefined) delete process.env.TZ;
  else process.env.TZ = TZ;
});

// Whole-hour, half-hour and 45-minute offsets, DST north and south, a 30-minute DST (Lord Howe).
const ZONES = ['Asia/Shanghai', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Katmandu', 'America/St_Johns', 'Pacific/Chatham', 'UTC'];

/** Every 15 minutes of 2026 around both DST changes of either hemisphere, and a spread of instants 1971–2099. */
function instants(): number[] {
  const out: number[] = [];
  for (const [m, d] of [[3, 8], [3, 29], [4, 5], [9, 27], [10, 4], [10, 25], [11, 1]] as const) {
    const from = Date.UTC(2026, m - 1, d - 1);
    for (let t = from; t < from + 3 * 86_400_000; t += 15 * 60_000) out.push(t);
  }
  for (let t = Date.UTC(1971, 0, 1) + 12_345_678; t < Date.UTC(2099, 0, 1); t += 86_400_000 * 37 + 3_599_001) out.push(t);
  return out;
}

describe('the process in its own zone', () => {
  it('reads the same calendar fields from Date as from Intl, across offsets and DST changes', () => {
    const times = instants();
    for (const zone of ZONES) {
      // Through Intl (the zone is not the process's), then through Date once runInZone made it the process's.
      expect(runInZone(zone === 'UTC' ? 'Asia/Shanghai' : 'UTC')).toBe(true);
      const intl: ZoneFields[] = times.map((t) => zoneFields(t, zone));
      expect(runInZone(zone)).toBe(true);
      const local: ZoneFields[] = times.map((t) => zoneFields(t, zone));
      for (let i = 0; i < times.length; i++) {
        if (JSON.stringify(local[i]) !== JSON.stringify(intl[i])) expect({ zone, at: new Date(times[i]!).toISOString(), local: local[i] }).toEqual({ zone, at: new Date(times[i]!).toISOString(), local: intl[i] });
      }
    }
  });

  it('schedules cron jobs at the same instants without croner’s zone support', () => {
    for (const zone of ['America/New_York', 'Australia/Lord_Howe', 'Asia/Shanghai']) {
      runInZone('UTC');
      const viaIntl = new Cron('30 2 * * *', { timezone: zone, paused: true }).nextRuns(400, new Date(Date.UTC(2026, 0, 1)));
      runInZone(zone);
      expect(cronZone(zone)).toEqual({});
      const viaDate = new Cron('30 2 * * *', { ...cronZone(zone), paused: true }).nextRuns(400, new Date(Date.UTC(2026, 0, 1)));
      expect(viaDate.map((d) => d.getTime())).toEqual(viaIntl.map((d) => d.getTime()));
    }
  });

  it('makes no Intl.DateTimeFormat for its dates, times and schedules (~8 MB of ICU data the first time)', async () => {
    // Fresh modules: no formatter cached by the tests above.
    vi.resetModules();
    const zone = await import('../src/zone');
    const time = await import('../src/http/time');
    const dates = await import('../src/stats/dates');
    expect(zone.runInZone('Asia/Shanghai')).toBe(true);
    const DateTimeFormat = Intl.DateTimeFormat;
    let made = 0;
    Intl.DateTimeFormat = new Proxy(DateTimeFormat, {
      construct(target, args: ConstructorParameters<typeof DateTimeFormat>) {
        made++;
        return new target(...args);
      },
    });
    try {
      const ms = Date.UTC(2026, 0, 1, 16, 30, 5);
      expect(time.formatTime(ms, 'Asia/Shanghai')).toBe('2026-01-02 00:30:05');
      expect(time.parseWireTime('2026-01-02 00:30:05', 'Asia/Shanghai')).toBe(ms);
      expect(dates.statDateOf(ms, 'Asia/Shanghai')).toBe('2026-01-02');
      expect(dates.lastDays(2, 'Asia/Shanghai', ms)).toEqual(['2026-01-01', '2026-01-02']);
      expect(dates.startOfToday('Asia/Shanghai', ms)).toBe(Date.UTC(2026, 0, 1, 16));
      const next = new Cron('0 2 * * *', { ...zone.cronZone('Asia/Shanghai'), paused: true }).nextRun(new Date(ms));
      expect(next?.getTime()).toBe(Date.UTC(2026, 0, 1, 18));
      expect(made).toBe(0);
      // Any other zone still goes through Intl.
      expect(time.formatTime(ms, 'UTC')).toBe('2026-01-01 16:30:05');
      expect(made).toBe(1);
    } finally {
      Intl.DateTimeFormat = DateTimeFormat;
    }
  });

  it('leaves an alias or an unknown name to Intl', () => {
    expect(runInZone('Asia/Shanghai')).toBe(true);
    expect(runInZone('Mars/Olympus_Mons')).toBe(false);
    expect(process.env.TZ).toBe('Asia/Shanghai');
    expect(() => formatTime(1, 'Mars/Olympus_Mons')).toThrow(RangeError);
    // Only a name ICU lists counts as the process's zone; an alias reads the same clock through Intl.
    expect(runInZone('US/Eastern')).toBe(false);
    expect(formatTime(Date.UTC(2026, 0, 1), 'US/Eastern')).toBe('2025-12-31 19:00:00');
  });
});
