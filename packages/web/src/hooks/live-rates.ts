// Live request and token rates (reference §1.4): `POST /dashboard/per/second` every second and
// `/dashboard/per/minute` every 3 s, with an optional call-log filter (the chat log sends its own).
// react-query skips interval fetches while the tab is hidden (refetchIntervalInBackground is off), so
// a background tab polls nothing; showing it again fetches at once.
import { useQuery } from '@tanstack/react-query';
import { DASHBOARD_PER_MINUTE, DASHBOARD_PER_SECOND } from '@fastgate/core/entities/dashboard';
import type { LogFilter, PerMinute, PerSecond } from '@fastgate/core/entities/call-log';
import { post } from '../api/http';
import { API } from '../api/paths';

export const PER_SECOND_MS = 1000;
export const PER_MINUTE_MS = 3000;

export function useLiveRates(filter: Partial<LogFilter> = {}, enabled = true) {
  const options = { enabled, refetchOnWindowFocus: true, refetchIntervalInBackground: false, staleTime: 0, retry: false } as const;
  // Silent: a failing poll must not toast once a second; the figures just stay as they were.
  const perSecond = useQuery({
    ...options,
    queryKey: ['live-rates', 'second', filter],
    queryFn: () => post<PerSecond>(`${API}${DASHBOARD_PER_SECOND}`, filter, { silent: true }),
    refetchInterval: PER_SECOND_MS,
  });
  const perMinute = useQuery({
    ...options,
    queryKey: ['live-rates', 'minute', filter],
    queryFn: () => post<PerMinute>(`${API}${DASHBOARD_PER_MINUTE}`, filter, { silent: true }),
    refetchInterval: PER_MINUTE_MS,
  });
  return { perSecond: perSecond.data, perMinute: perMinute.data };
}
