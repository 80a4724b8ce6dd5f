import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { shipmentsSearchSchema } from '../../features/shipments/shipments-search';
import { connectedRoute } from './connected';
import { RouteError } from './route-error';

export const shipmentsRoute = createRoute({
  getParentRoute: () => connectedRoute,
  path: '/shipments',
  validateSearch: (search) => shipmentsSearchSchema.parse(search),
  staticData: {
    connectPrompt: {
      title: 'Shipments',
      description: 'Shipments in your workspace, newest first. Pick an import job, or filter by an import batch, to see what one import created or updated.',
      heading: 'Connect to see shipments',
      body: 'Shipments come from the tracking service. Connect with an API key, or use the local sandbox.',
    },
  },
  component: lazyRouteComponent(() => import('./shipments-view'), 'ShipmentsRoute'),
  errorComponent: RouteError,
});
