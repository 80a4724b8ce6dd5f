import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { connectedRoute } from './connected';
import { RouteError } from './route-error';

export const batchRoute = createRoute({
  getParentRoute: () => connectedRoute,
  path: '/batches/$batchId',
  staticData: {
    connectPrompt: {
      title: 'Import batch',
      description: 'One batch of an import, opened by its id: every row’s result, the failed rows to download, fix and resend.',
      heading: 'Connect to open this batch',
      body: 'Batches are read from the tracking service. Connect with your workspace’s API key, or use the local sandbox.',
    },
  },
  component: lazyRouteComponent(() => import('./batch-view'), 'BatchRoute'),
  errorComponent: RouteError,
});
