import { createRoute } from '@tanstack/react-router';
import { lazy, useSyncExternalStore } from 'react';
import { jobStore } from '../../jobs/job-runtime';
import { shipmentsSearchSchema } from '../../features/shipments/shipments-search';
import { connectedRoute } from './connected';
import { RouteError } from './route-error';

// Lazy like the other pages; React.lazy rather than lazyRouteComponent because the page takes the
// job store's snapshot (for the job picker) from this route. The router's Suspense boundary shows
// nothing while it loads.
const ShipmentsPage = lazy(() => import('../../features/shipments/shipments-page').then((m) => ({ default: m.ShipmentsPage })));

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
  component: ShipmentsRoute,
  errorComponent: RouteError,
});

/** The shipment list beside this browser's import jobs (read only), for the job picker. */
function ShipmentsRoute() {
  const jobs = useSyncExternalStore(jobStore.subscribe, jobStore.getSnapshot);
  return <ShipmentsPage jobs={jobs} onReloadJobs={() => void jobStore.reload()} />;
}
