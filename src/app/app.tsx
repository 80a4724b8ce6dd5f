import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { subscribeConnection } from '../api/connection-store';
import { createAppRouter } from './router';

export function App() {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        // The HTTP module already retries 429/5xx/network errors with backoff; Query must not
        // multiply those retries.
        defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 } },
      }),
  );
  const [router] = useState(() => createAppRouter(queryClient));
  // Cached answers belong to one key's workspace: drop them when the user connects elsewhere.
  useEffect(() => subscribeConnection(() => queryClient.clear()), [queryClient]);
  // The job runner sends and polls import jobs on every page (in the tab that holds its lock). It
  // is not needed to paint the first page: it loads just after, as its own chunk.
  useEffect(() => {
    let stop: (() => void) | null = null;
    let cancelled = false;
    void import('../features/job/start-job-runner').then(({ startJobRunner }) => {
      if (!cancelled) stop = startJobRunner(queryClient);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [queryClient]);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
