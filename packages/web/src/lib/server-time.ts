// "Now" on the server's wall clock. Wire times and day boundaries (logs, bills, dashboard) are in the
// server's time zone, which may differ from the browser's: date shortcuts and default ranges use this.
// Arco's own dayjs instance: pickers and shortcuts need its Dayjs values.
import { dayjs } from '@arco-design/web-react/es/_util/dayjs';
import { useUserStore } from '../stores/user';

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClock(timeZone: string, at: Date): string | undefined {
  let f = formatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    } catch {
      return undefined;
    }
    formatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** The server's current wall-clock time as a (browser-local) Dayjs; the browser's own clock before sign-in. */
export function serverNow(at = new Date()): ReturnType<typeof dayjs> {
  const zone = useUserStore.getState().info?.time_zone;
  const text = zone ? wallClock(zone, at) : undefined;
  return text ? dayjs(text.replace(' ', 'T')) : dayjs(at);
}

/** An epoch-ms time as the wire shows times: `YYYY-MM-DD HH:mm:ss` on the server's wall clock. */
export function serverTimeText(ms: number): string {
  const zone = useUserStore.getState().info?.time_zone;
  return (zone && wallClock(zone, new Date(ms))) || dayjs(ms).format('YYYY-MM-DD HH:mm:ss');
}
