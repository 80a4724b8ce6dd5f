import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { connectedRoute } from './connected';
import { RouteError } from './route-error';

export const quickAddRoute = createRoute({
  getParentRoute: () => connectedRoute,
  path: '/quick-add',
  staticData: {
    connectPrompt: {
      title: 'Quick add',
      description: 'Type or paste a few shipments; they are checked as a file’s rows are and sent as one list.',
      heading: 'Connect before you add shipments',
      body: 'Quick add sends to the tracking service. Connect with your API key, or use the local sandbox.',
    },
  },
  component: lazyRouteComponent(() => import('../../features/quick-add/quick-add-page'), 'QuickAddPage'),
  errorComponent: RouteError,
});
