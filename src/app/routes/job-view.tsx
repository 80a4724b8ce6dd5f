// The job page's body, loaded with the route (lazy): the job's progress (features/job) and, under
// it, its results (features/results). Kept apart from job.tsx so that the job store and its
// IndexedDB code are not in the console's first load.
import { useNavigate, useParams } from '@tanstack/react-router';
import { lazy } from 'react';
import { hasTeamHistory } from '../../api/team-history';
import { useConnection } from '../../api/use-connection';
import { useJob, useJobs } from '../../features/job/use-jobs';
import { jobDatabase } from '../../jobs/job-runtime';
import { resultsThread } from '../../jobs/thread/results-reader';
import { stashRetry } from '../retry-handoff';

const loadJobPage = () => import('../../features/job/job-page');
const loadJobResults = () => import('../../features/results/job-results');
const JobPage = lazy(() => loadJobPage().then((m) => ({ default: m.JobPage })));
const JobResults = lazy(() => loadJobResults().then((m) => ({ default: m.JobResults })));
const TeamJobPage = lazy(() => import('../../features/job/team-job-page').then((m) => ({ default: m.TeamJobPage })));
const TeamJobResults = lazy(() => import('../../features/results/team-job-results').then((m) => ({ default: m.TeamJobResults })));

/** Loads the progress and results code before the page is opened (the Ready step asks, ahead of Send). */
export function preloadJobBody(): void {
  void loadJobPage();
  void loadJobResults();
}

export function JobRoute() {
  const { jobId } = useParams({ from: '/connected/imports/$jobId' });
  const { job, status } = useJob(jobId);
  const { jobs } = useJobs();
  const navigate = useNavigate();
  const connection = useConnection();
  // A job this browser did not send: the team history's copy, where the console's server keeps one.
  if (status === 'ready' && !job && connection && hasTeamHistory(connection)) {
    const target = { baseUrl: connection.baseUrl, apiKey: connection.apiKey };
    return (
      <div className="space-y-8">
        <TeamJobPage jobId={jobId} target={target} />
        <TeamJobResults
          jobId={jobId}
          target={target}
          thread={resultsThread}
          onFixAndRetry={(handoff) => {
            stashRetry(handoff);
            void navigate({ to: '/' });
          }}
        />
      </div>
    );
  }
  return (
    <div className="space-y-8">
      <JobPage jobId={jobId} />
      {job && (
        <JobResults
          key={job.id}
          job={job}
          thread={resultsThread}
          database={jobDatabase}
          target={connection ? { baseUrl: connection.baseUrl, apiKey: connection.apiKey } : null}
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
