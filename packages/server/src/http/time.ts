// Wire timestamps: "YYYY-MM-DD HH:mm:ss" in the configured zone (docs/ORIGINAL-API.md §2.10).
import { clockText, dateText, zoneFields } from '../zone';

export function formatTime(ms: number | null | undefined, timeZone: string): string {
  if (ms === null || ms === undefined || ms <= 0) return '';
  const f = zoneFields(ms, timeZone);
  return `${dateText(f)} ${clockText(f)}`;
}

/** Offset of `timeZone` from UTC at instant `ms`, in ms. */
function zoneOffset(ms: number, timeZone: string): number {
  const p = zoneFields(ms, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

/**
 * "YYYY-MM-DD[ HH:mm:ss]" in `timeZone` → epoch ms; a bare date means its start, or its last
 * millisecond with `endOfDay`. undefined for anything unparseable.
 */
export function parseWireTime(text: string, timeZone: string, endOfDay = false): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  const dateOnly = m[4] === undefined;
  const guess = Date.UTC(y!, mo! - 1, d!, dateOnly ? 0 : h!, dateOnly ? 0 : mi!, dateOnly ? 0 : (s ?? 0));
  if (Number.isNaN(guess)) return undefined;
  const ms = guess - zoneOffset(guess, timeZone);
  return dateOnly && endOfDay ? ms + 86_400_000 - 1 : ms;
}
