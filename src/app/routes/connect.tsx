import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { rootRoute } from './root';
import { RouteError } from './route-error';

export const connectRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/connect',
  component: lazyRouteComponent(() => import('../../features/connect/connect-page'), 'ConnectPage'),
  errorComponent: RouteError,
});
