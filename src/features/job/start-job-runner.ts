// Starts this browser's job runner with the results worker as its reader of batch bodies (its
// imports and polls are made there) and the app's QueryClient for its poll loop. Loaded after
// the first page is painted: the app calls it once.
import type { QueryClient } from '@tanstack/react-query';
import { jobRunner } from '../../jobs/job-runtime';
import { resultsReader } from './results-reader';

export function startJobRunner(client: QueryClient): () => void {
  return jobRunner.start(resultsReader, client);
}
