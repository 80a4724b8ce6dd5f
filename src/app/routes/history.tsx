import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './root';
import { RouteError } from './route-error';

// Local jobs (IndexedDB) need no connection to be listed.
export const historyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/history',
  component: lazyRouteComponent(() => import('../../features/history/history-page'), 'HistoryPage'),
  errorComponent: RouteError,
});
