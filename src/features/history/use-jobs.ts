import { useSyncExternalStore } from 'react';
import { jobStore } from '../../jobs/job-runtime';
import type { JobsSnapshot } from '../../jobs/job-store';

/** Every import job of this browser, newest first, following changes in any tab. */
export function useJobs(): JobsSnapshot {
  return useSyncExternalStore(jobStore.subscribe, jobStore.getSnapshot);
}
