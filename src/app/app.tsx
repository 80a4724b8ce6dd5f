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
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
