import { createRoute, useNavigate } from '@tanstack/react-router';
import { lazy } from 'react';
import { useJob, useJobs } from '../../features/job/use-jobs';
import { jobStore } from '../../jobs/job-runtime';
import { stashRetry } from '../retry-handoff';
import { connectedRoute } from './connected';
import { RouteError } from './route-error';

// Lazy like the other pages; React.lazy rather than lazyRouteComponent because the page takes the
// job id from this route's params. The router's Suspense boundary shows nothing while they load.
const JobPage = lazy(() => import('../../features/job/job-page').then((m) => ({ default: m.JobPage })));
const JobResults = lazy(() => import('../../features/results/job-results').then((m) => ({ default: m.JobResults })));

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
  component: JobRoute,
  errorComponent: RouteError,
});

/** The job's progress (features/job) and, under it, its results (features/results). */
function JobRoute() {
  const { jobId } = jobRoute.useParams();
  const { job } = useJob(jobId);
  const { jobs } = useJobs();
  const navigate = useNavigate();
  return (
    <div className="space-y-8">
      <JobPage jobId={jobId} />
      {job && (
        <JobResults
          key={job.id}
          job={job}
          store={jobStore}
          jobs={jobs}
          onFixAndRetry={(handoff) => {
            stashRetry(handoff);
            void navigate({ to: '/' });
          }}
        />
      )}
    </div>
  );
}
