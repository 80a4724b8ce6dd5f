// The poll side of the runner, mounted once in the shell so polling goes on on every page: one
// TanStack Query per running batch, paced by the runner's one plan for all of them. Only the
// tab that holds the runner lock polls; the others see the results through the job store.
import { useQuery } from '@tanstack/react-query';
import { memo, useEffect, useMemo } from 'react';
import { type ApiTarget, httpDepsWith, type KeptBody } from '../../api/http-client';
import { batchQueryOptions } from '../../api/imports';
import { sleep } from '../../api/rate-limit-budget';
import { useConnection } from '../../api/use-connection';
import { JobRunner } from '../../jobs/job-runner';
import { jobRunner, jobStorage } from '../../jobs/job-runtime';
import { resultsReader } from './results-reader';
import { useJobs, useRunner } from './use-jobs';

export function JobPoller() {
  const { role } = useRunner();
  const connection = useConnection();
  const { jobs } = useJobs();
  useEffect(() => jobRunner.start(resultsReader), []);
  // One target object while the connection stays the same, so a BatchPoll's props stay equal.
  const baseUrl = connection?.baseUrl;
  const apiKey = connection?.apiKey;
  const target = useMemo<ApiTarget | null>(() => (baseUrl === undefined || apiKey === undefined ? null : { baseUrl, apiKey }), [baseUrl, apiKey]);
  if (!target || (role !== 'runner' && role !== 'no-locks')) return null;
  return (
    <>
      {JobRunner.runningBatches(jobs, target.baseUrl).map((batch) => {
        const chunkId = jobs.find((job) => job.id === batch.jobId)?.batches[batch.batchId]?.chunkId;
        return chunkId === undefined ? null : <BatchPoll key={batch.batchId} jobId={batch.jobId} batchId={batch.batchId} chunkId={chunkId} target={target} />;
      })}
    </>
  );
}

/** Polls go out from the results worker, like imports (results-reader.ts). */
const workerHttp = httpDepsWith(resultsReader.fetch);

const schedule = (batchId: string) => ({
  waitUntilDue: async (signal: AbortSignal) => {
    const wait = jobRunner.dueAt(batchId) - Date.now();
    if (wait > 0) await sleep(wait, signal);
    jobRunner.pollStarted(batchId);
  },
  nextPollIn: () => jobRunner.dueAt(batchId) - Date.now(),
});

/**
 * Memoised: the job store changes with every import accepted and every poll, and re-rendering
 * every batch's query then gave each observer new options (its timers reset, its next poll
 * planned again for every running batch) in one task.
 */
const BatchPoll = memo(function BatchPoll({ jobId, batchId, chunkId, target }: { jobId: string; batchId: string; chunkId: number; target: ApiTarget }) {
  // The results worker makes the request, reads and summarises the body where it arrived, and
  // saves a final batch's outcome in the job store's database: the query keeps only the digest
  // (counts, first problems).
  const read = async (body: ArrayBuffer | KeptBody) =>
    resultsReader.digest(body, await jobRunner.rowNumbersOf(jobId, batchId), { database: jobStorage.databaseName, jobId, chunkId });
  const { data, dataUpdatedAt } = useQuery(batchQueryOptions(target, batchId, schedule(batchId), read, workerHttp));
  useEffect(() => {
    // A job deleted meanwhile has nowhere to record the poll: nothing to do.
    if (data) jobRunner.recordPoll(jobId, data).catch(() => undefined);
  }, [jobId, data, dataUpdatedAt]);
  return null;
});
