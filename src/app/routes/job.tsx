import { createRoute } from '@tanstack/react-router';
import { lazy } from 'react';
import { connectedRoute } from './connected';
import { RouteError } from './route-error';

// Lazy like the other pages; React.lazy rather than lazyRouteComponent because the page takes the
// job id from this route's params. The router's Suspense boundary shows nothing while it loads.
const JobPage = lazy(() => import('../../features/job/job-page').then((m) => ({ default: m.JobPage })));

export const jobRoute = createRoute({
  getParentRoute: () => connectedRoute,
  path: '/imports/$jobId',
  staticData: {
    connectPrompt: {
      title: 'Import job',
      description: 'The progress of one import: its batches, counts and the rate-limit budget.',
      heading: 'Connect to follow this import',
      body: 'Sending and polling need the tracking service. Connect with the API key this import was sent with, or use the local sandbox.',
    },
  },
  component: JobRoute,
  errorComponent: RouteError,
});

function JobRoute() {
  const { jobId } = jobRoute.useParams();
  return <JobPage jobId={jobId} />;
}
