import { QueryClient } from '@tanstack/react-query';

/** The one react-query client: server data lives here, never in zustand (one home per state). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
