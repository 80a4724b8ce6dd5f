import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { z } from 'zod';
import { rootRoute } from './root';
import { RouteError } from './route-error';

const historySearchSchema = z.object({ view: z.enum(['team']).optional().catch(undefined) });

// Local jobs (IndexedDB) need no connection to be listed; the Team view asks for one itself.
export const historyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/history',
  validateSearch: (search) => historySearchSchema.parse(search),
  component: lazyRouteComponent(() => import('./history-view'), 'HistoryRoute'),
  errorComponent: RouteError,
});
