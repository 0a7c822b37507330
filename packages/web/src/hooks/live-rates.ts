// Live request and token rates (docs/ORIGINAL-API.md §1.4): `POST /dashboard/per/second` every second and
// `/dashboard/per/minute` every 3 s, with an optional call-log filter (the chat log sends its own).
// react-query skips interval fetches while the tab is hidden (refetchIntervalInBackground is off), so
// a background tab polls nothing; showing it again fetches at once.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DASHBOARD_PER_MINUTE, DASHBOARD_PER_SECOND } from '@fastgate/core/entities/dashboard';
import type { LogFilter, PerMinute, PerSecond } from '@fastgate/core/entities/call-log';
import { post } from '../api/http';
import { API } from '../api/paths';

const PER_SECOND_MS = 1000;
const PER_MINUTE_MS = 3000;

/** A call-log filter as a screen holds it; the server validates it. */
type RateFilter = Partial<Record<keyof LogFilter, unknown>>;

function useRate<T>(path: string, unit: string, intervalMs: number, filter: RateFilter, enabled: boolean) {
  return useQuery({
    enabled,
    refetchOnWindowFocus: true,
    refetchIntervalInBackground: false,
    staleTime: 0,
    retry: false,
    // A failed or pending poll keeps the last figures (and never toasts once a second).
    placeholderData: keepPreviousData,
    queryKey: ['live-rates', unit, filter],
    queryFn: () => post<T>(`${API}${path}`, filter, { silent: true }),
    refetchInterval: intervalMs,
  });
}

/** Requests and tokens of the last 60 s for the filter (the chat log's badge polls only this). */
export const usePerMinute = (filter: RateFilter = {}, enabled = true) => useRate<PerMinute>(DASHBOARD_PER_MINUTE, 'minute', PER_MINUTE_MS, filter, enabled);

export function useLiveRates(filter: RateFilter = {}, enabled = true) {
  const perSecond = useRate<PerSecond>(DASHBOARD_PER_SECOND, 'second', PER_SECOND_MS, filter, enabled);
  const perMinute = usePerMinute(filter, enabled);
  return { perSecond: perSecond.data, perMinute: perMinute.data };
}
