// Upstream health of keys and agents (issue 13): their circuit breakers, refreshed every few seconds
// while on screen, and the test button's one real request through a key.
import { useMemo } from 'react';
import { Message } from '@arco-design/web-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MODEL_AGENT_BREAKERS, MODEL_AGENT_KEY_TEST, type BreakerInfo, type KeyTestResult } from '@fastgate/core/entities/breaker';
import { get, post } from '../../api/http';
import { API } from '../../api/paths';
import { usePageLocale } from '../../locale';
import locale from './locale';

const KEY = [MODEL_AGENT_BREAKERS] as const;

/** The breakers of these keys and agents, by id (absent until loaded, or for ids the gateway does not know). */
export function useBreakers(ids: readonly string[]): Map<string, BreakerInfo> {
  const joined = [...ids].sort().join(',');
  const query = useQuery({
    queryKey: [...KEY, joined],
    queryFn: () => get<{ items: BreakerInfo[] }>(`${API}${MODEL_AGENT_BREAKERS}`, { ids: joined }, { silent: true }),
    enabled: joined.length > 0,
    refetchInterval: 5000,
  });
  return useMemo(() => new Map((query.data?.items ?? []).map((b) => [b.id, b])), [query.data]);
}

/** Sends one real request through a key; says how it went and refreshes every breaker on screen. */
export function useKeyTest() {
  const t = usePageLocale(locale);
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => post<KeyTestResult>(`${API}${MODEL_AGENT_KEY_TEST}`, { id }),
    onSuccess: async (r) => {
      if (r.ok) Message.success(t('health.test.ok', { status: r.status, ms: r.latency_ms }));
      else Message.error({ content: t('health.test.failed', { status: r.status, message: r.message }), duration: 8000 });
      await client.invalidateQueries({ queryKey: KEY });
    },
  });
}
