// What the clock reads in a time zone: the one source of every zone-aware date of the product (wire
// times, stat dates, day windows, cron schedules).
//
// ICU answers two ways. An Intl.DateTimeFormat loads ICU's locale and pattern data the first time any is
// made, ~8 MB of the process's RSS for the rest of its life; Date's local-time getters read only the
// zone's rules (~2 MB) and cost a tenth of formatToParts, but answer only for the process's own zone (TZ).
// main.ts runs the product in its configured zone (runInZone), so the product asks Date and never makes a
// DateTimeFormat; any other zone (tests, tools) goes through Intl.

/** The zone runInZone made the process's own, if any. */
let localZone: string | undefined;

/**
 * Makes `timeZone` the process's own (TZ), so Date's local-time getters answer in it, when ICU knows the
 * zone by that name; false (nothing changed) for an alias or an unknown name, which then go through Intl.
 */
export function runInZone(timeZone: string): boolean {
  if (timeZone !== 'UTC' && !Intl.supportedValuesOf('timeZone').includes(timeZone)) return false;
  // A write, not configuration read outside config.ts: the process's zone follows TIME_ZONE.
  // eslint-disable-next-line no-restricted-properties
  process.env.TZ = timeZone;
  localZone = timeZone;
  return true;
}

/** The zone runInZone made the process's own, for a worker thread to make its own too. */
export const processZone = (): string | undefined => localZone;

export interface ZoneFields {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The calendar fields of instant `ms` in `timeZone` (a RangeError for a zone ICU does not know). */
export function zoneFields(ms: number, timeZone: string): ZoneFields {
  const d = new Date(ms);
  if (timeZone === localZone) {
    return { year: d.getFullYear(), month: d.getMonth() + 1, day: d.getDate(), hour: d.getHours(), minute: d.getMinutes(), second: d.getSeconds() };
  }
  const f: ZoneFields = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const p of formatter(timeZone).formatToParts(d)) if (p.type in f) f[p.type as keyof ZoneFields] = Number(p.value);
  return f;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** "YYYY-MM-DD" of the fields. */
export const dateText = (f: ZoneFields): string => `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}`;

/** "HH:mm:ss" of the fields. */
export const clockText = (f: ZoneFields): string => `${pad(f.hour)}:${pad(f.minute)}:${pad(f.second)}`;

/** croner's options for a schedule in `timeZone`: the process's own zone needs none (croner's zone support makes a DateTimeFormat). */
export function cronZone(timeZone: string): { timezone?: string } {
  return timeZone === localZone ? {} : { timezone: timeZone };
}
