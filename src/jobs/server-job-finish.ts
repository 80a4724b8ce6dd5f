// A job the console's server sends finishes there, where no runner of this browser sees it
// happen: the page watching the jobs gives the notification the browser's runner gives for its own
// (runner/job-runner.ts recordPoll), once, for a job it saw unfinished and then finished with
// "notify me" on. A job first seen already finished gives none: it finished while nobody watched.
import type { ImportJob } from './import-job';

interface WatchedJobs {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => { jobs: readonly ImportJob[] };
}

/** Calls `notify` as each server-run job this page saw unfinished finishes with notify on; returns the unsubscribe. */
export function notifyWhenServerJobsFinish(store: WatchedJobs, notify: (job: ImportJob) => void): () => void {
  const unfinished = new Set<string>();
  return store.subscribe(() => {
    for (const job of store.getSnapshot().jobs) {
      if (job.runsOn !== 'console-server') continue;
      if (job.finishedAt === null) unfinished.add(job.id);
      else if (unfinished.delete(job.id) && job.notify) notify(job);
    }
  });
}
