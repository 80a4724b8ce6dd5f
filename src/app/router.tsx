import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, Link } from '@tanstack/react-router';
import { buttonClass } from '../components/button';
import { EmptyState } from '../components/empty-state';
import { AlertIcon } from '../components/icons';
import { ConnectPage } from '../features/connect/connect-page';
import { HistoryPage } from '../features/history/history-page';
import { ImportsPage } from '../features/history/imports-page';
import { ImportPage } from '../features/import/import-page';
import { JobPage } from '../features/job/job-page';
import { QuickAddPage } from '../features/quick-add/quick-add-page';
import { ShipmentsPage } from '../features/shipments/shipments-page';
import { shipmentsSearchSchema } from '../features/shipments/shipments-search';
import { AppShell } from './app-shell';

interface RouterContext {
  queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: AppShell,
  notFoundComponent: () => (
    <EmptyState icon={<AlertIcon />} title="Page not found" action={<Link to="/" className={buttonClass()}>Go to Import</Link>}>
      This address is not a page of the console.
    </EmptyState>
  ),
});

const importRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: ImportPage });
const importsRoute = createRoute({ getParentRoute: () => rootRoute, path: '/imports', component: ImportsPage });
const jobRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/imports/$jobId',
  component: function JobRoute() {
    const { jobId } = jobRoute.useParams();
    return <JobPage jobId={jobId} />;
  },
});
const shipmentsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/shipments',
  validateSearch: (search) => shipmentsSearchSchema.parse(search),
  component: ShipmentsPage,
});
const connectRoute = createRoute({ getParentRoute: () => rootRoute, path: '/connect', component: ConnectPage });
const historyRoute = createRoute({ getParentRoute: () => rootRoute, path: '/history', component: HistoryPage });
const quickAddRoute = createRoute({ getParentRoute: () => rootRoute, path: '/quick-add', component: QuickAddPage });

const routeTree = rootRoute.addChildren([importRoute, importsRoute, jobRoute, shipmentsRoute, connectRoute, historyRoute, quickAddRoute]);

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({ routeTree, context: { queryClient }, defaultPreload: 'intent', scrollRestoration: true });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
