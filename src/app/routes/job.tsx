import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { connectedRoute } from './connected';
import { RouteError } from './route-error';

export const jobRoute = createRoute({
  getParentRoute: () => connectedRoute,
  path: '/imports/$jobId',
  staticData: {
    connectPrompt: {
      title: 'Import job',
      description: 'The progress of one import: its batches, counts and the rate-limit budget, then every row’s result.',
      heading: 'Connect to follow this import',
      body: 'Sending and polling need the tracking service. Connect with the API key this import was sent with, or use the local sandbox.',
    },
  },
  component: lazyRouteComponent(() => import('./job-view'), 'JobRoute'),
  errorComponent: RouteError,
});

