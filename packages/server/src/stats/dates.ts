// Stat dates: "YYYY-MM-DD" in the configured zone (docs/ORIGINAL-API.md §2.10), and the day windows of the
// dashboard and bills (docs/ORIGINAL-API.md §1.4: from 00:00 of today − days + 1 to today 23:59:59).
import { parseWireTime } from '../http/time';
import { dateText, zoneFields } from '../zone';

const DAY_MS = 86_400_000;
/** Every zone offset is a multiple of 15 minutes, so a day boundary never falls inside such a slot. */
const SLOT_MS = 15 * 60_000;

/** slot → date, per zone: the statistics job dates millions of rows, most in a few slots. */
const slotDates = new Map<string, Map<number, string>>();

/** The stat date of an instant in `timeZone`. */
export function statDateOf(ms: number, timeZone: string): string {
  let cache = slotDates.get(timeZone);
  if (!cache) slotDates.set(timeZone, (cache = new Map()));
  const slot = Math.floor(ms / SLOT_MS);
  let date = cache.get(slot);
  if (date === undefined) {
    if (cache.size > 50_000) cache.clear();
    date = dateText(zoneFields(slot * SLOT_MS, timeZone));
    cache.set(slot, date);
  }
  return date;
}

/** Calendar arithmetic on "YYYY-MM-DD" (no zone involved). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included (0 when `to` is before `from`). */
export function daysBetween(from: string, to: string): number {
  const ms = (date: string) => {
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    return Date.UTC(y, m - 1, d);
  };
  return Math.max(0, Math.round((ms(to) - ms(from)) / DAY_MS) + 1);
}

/** A real calendar date ("2031-02-30" matches the pattern but is none). */
export function isCalendarDate(date: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(date) && addDays(date, 0) === date;
}

/** The last `days` stat dates up to today, oldest first. */
export function lastDays(days: number, timeZone: string, now = Date.now()): string[] {
  const today = statDateOf(now, timeZone);
  return Array.from({ length: days }, (_, i) => addDays(today, i - days + 1));
}

/** Epoch ms of today's 00:00 in `timeZone`. */
export function startOfToday(timeZone: string, now = Date.now()): number {
  return parseWireTime(statDateOf(now, timeZone), timeZone)!;
}
