// Loads a job's results: its finished batches' outcomes joined to the rows as sent, built in
// slices (result-rows buildJobResults). Built again when another batch of the job finishes, and
// on Retry after an error.
import { useEffect, useState } from 'react';
import type { BatchOutcome, ChunkPayload, ImportJob } from '../../jobs/import-job';
import type { RowNumbering } from '../../workers/import-protocol';
import { buildJobResults, type JobResults } from './result-rows';

/** What the results need of the job store (src/jobs/job-store.ts JobStore). */
export interface ResultsStore {
  getOutcomes(jobId: string): Promise<BatchOutcome[]>;
  getPayload(jobId: string, chunkId: number): Promise<ChunkPayload | undefined>;
}

export type JobResultsState =
  | { status: 'loading'; results: JobResults | null }
  | { status: 'ready'; results: JobResults }
  | { status: 'error'; message: string; results: JobResults | null };

/** Batches of the job that have finished: the results grow with this number. */
export function finishedBatches(job: ImportJob): number {
  return Object.values(job.batches).filter((batch) => batch.finishedAt !== null).length;
}

export function useJobResults(job: ImportJob, store: ResultsStore, numbering: RowNumbering): { state: JobResultsState; retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  const finished = finishedBatches(job);
  const { id, headers, chunks } = job;
  // The load a settled answer belongs to: a newer load shows "loading" with the last results.
  const key = `${id}:${finished}:${attempt}:${numbering}`;
  const [settled, setSettled] = useState<{ key: string; results: JobResults | null; error: string | null } | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    (async () => {
      const outcomes = await store.getOutcomes(id);
      controller.signal.throwIfAborted();
      return buildJobResults({ headers, chunks }, outcomes, (chunkId) => store.getPayload(id, chunkId), undefined, controller.signal, numbering);
    })().then(
      (results) => {
        if (!controller.signal.aborted) setSettled({ key, results, error: null });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const message = `The results could not be read from this browser's storage: ${error instanceof Error ? error.message : String(error)}`;
        setSettled((previous) => ({ key, results: previous?.results ?? null, error: message }));
      },
    );
    return () => controller.abort();
    // chunks and headers change only with the job's rows; `key` says when to read again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, store]);

  const retry = () => setAttempt((n) => n + 1);
  if (settled?.key !== key) return { state: { status: 'loading', results: settled?.results ?? null }, retry };
  if (settled.error !== null) return { state: { status: 'error', message: settled.error, results: settled.results }, retry };
  return { state: { status: 'ready', results: settled.results! }, retry };
}
