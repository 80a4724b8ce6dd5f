// Starts this browser's job runner with the results worker as its reader of batch bodies (its
// imports and polls are made there) and the app's QueryClient for its poll loop, and the team
// history's reporter, and the notices of the server's jobs finishing. Loaded after the first page is painted: the app calls it once.
import type { QueryClient } from '@tanstack/react-query';
import { jobRunner, teamReporter, watchServerJobsFinish } from '../../jobs/job-runtime';
import { resultsThread } from '../../jobs/thread/results-reader';

export function startJobRunner(client: QueryClient): () => void {
  const stopRunner = jobRunner.start(resultsThread, client);
  // Every tab reports to the team history: a report is idempotent, and one tab may close early.
  teamReporter.start();
  const stopNotices = watchServerJobsFinish();
  return () => {
    stopRunner();
    teamReporter.stop();
    stopNotices();
  };
}
