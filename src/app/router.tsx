// The route tree: one file per page under routes/, each composing features. A new page is a new
// file there and one line here (under connectedRoute when it needs the service).
import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { batchRoute } from './routes/batch';
import { connectRoute } from './routes/connect';
import { connectedRoute } from './routes/connected';
import { historyRoute } from './routes/history';
import { importRoute } from './routes/import';
import { jobRoute } from './routes/job';
import { quickAddRoute } from './routes/quick-add';
import { rootRoute } from './routes/root';
import { shipmentsRoute } from './routes/shipments';

const routeTree = rootRoute.addChildren([connectedRoute.addChildren([importRoute, jobRoute, batchRoute, quickAddRoute, shipmentsRoute]), historyRoute, connectRoute]);

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({ routeTree, context: { queryClient }, defaultPreload: 'intent', scrollRestoration: true });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
