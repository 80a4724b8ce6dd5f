import { useObservable } from '../../api/use-observable';
import type { ImportJob } from '../../jobs/import-job';
import { jobRunner, jobStore } from '../../jobs/job-runtime';
import type { JobsSnapshot } from '../../jobs/job-store';
import type { RunnerSnapshot } from '../../jobs/runner/job-runner';

/** Every job in this browser, re-rendering when any tab changes one. */
export function useJobs(): JobsSnapshot {
  return useObservable(jobStore);
}

/** One job, or undefined while loading or when this browser has no such job. */
export function useJob(jobId: string): { job: ImportJob | undefined; status: JobsSnapshot['status']; error: string | null } {
  const snapshot = useJobs();
  return { job: snapshot.jobs.find((job) => job.id === jobId), status: snapshot.status, error: snapshot.error };
}

/** Whether this tab sends and polls, or watches another tab do it. */
export function useRunner(): RunnerSnapshot {
  return useObservable(jobRunner);
}
