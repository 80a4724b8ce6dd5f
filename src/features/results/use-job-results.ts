// Loads a job's results: its finished batches' outcomes joined to the rows as sent, built in
// slices (result-rows buildJobResults). While the job runs, one collector lives on, so a batch
// that finishes is read and joined alone: rebuilding every outcome after each batch held the
// page's thread for hundreds of milliseconds late in a 100,000-row job. Retry after an error
// reads again what is missing.
import { startTransition, useEffect, useRef, useState } from 'react';
import type { BatchOutcome, ChunkPayload, ImportJob } from '../../jobs/import-job';
import type { RowNumbering } from '../../workers/import-protocol';
import { buildJobResults, ResultsCollector, yieldToEventLoop, type JobResults } from './result-rows';

/** What the results need of the job store (src/jobs/job-store.ts JobStore). */
export interface ResultsStore {
  getOutcomes(jobId: string): Promise<BatchOutcome[]>;
  /** One batch's outcome; without it every outcome is read and the others dropped. */
  getOutcome?(jobId: string, batchId: string): Promise<BatchOutcome | undefined>;
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

/**
 * Each finished batch with what says its outcome changed since: the tracking follow-up rewrites
 * an outcome's items as their tracking settles, and each time takes those shipments off the
 * batch's pending list (the same job write).
 */
function finishedVersions(job: ImportJob): Map<string, string> {
  const pending = new Map((job.trackingFollowUps ?? []).map((followUp) => [followUp.batchId, followUp.pending.length]));
  const versions = new Map<string, string>();
  for (const batch of Object.values(job.batches)) {
    if (batch.finishedAt !== null) versions.set(batch.batchId, String(pending.get(batch.batchId) ?? 0));
  }
  return versions;
}

export function useJobResults(job: ImportJob, store: ResultsStore, numbering: RowNumbering): { state: JobResultsState; retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  const versions = finishedVersions(job);
  const { id, headers, chunks } = job;
  // The load a settled answer belongs to: a newer load shows "loading" with the last results.
  const key = `${id}:${[...versions].map(([batchId, version]) => `${batchId}=${version}`).join(',')}:${attempt}:${numbering}`;
  const [settled, setSettled] = useState<{ key: string; results: JobResults | null; error: string | null } | null>(null);
  // The batches joined so far, for this job, store and numbering.
  const kept = useRef<{ owner: string; store: ResultsStore; collector: ResultsCollector } | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const owner = `${id}:${numbering}`;
    if (kept.current?.owner !== owner || kept.current.store !== store) kept.current = { owner, store, collector: new ResultsCollector(headers, numbering) };
    const { collector } = kept.current;
    (async () => {
      const missing = [...versions].filter(([batchId, version]) => !collector.holds(batchId, version)).map(([batchId]) => batchId);
      let outcomes: BatchOutcome[];
      if (store.getOutcome) {
        outcomes = [];
        for (const batchId of missing) {
          const outcome = await store.getOutcome(id, batchId);
          controller.signal.throwIfAborted();
          if (outcome) outcomes.push(outcome);
        }
      } else {
        const wanted = new Set(missing);
        outcomes = (await store.getOutcomes(id)).filter((outcome) => wanted.has(outcome.batchId));
      }
      controller.signal.throwIfAborted();
      const versionOf = (batchId: string) => versions.get(batchId) ?? '';
      // A turn of the event loop between reading a chunk's rows (IndexedDB's clone, on this
      // thread) and joining them: one task each, rather than both in the read's callback.
      const loadPayload = async (chunkId: number) => {
        const payload = await store.getPayload(id, chunkId);
        await yieldToEventLoop();
        return payload;
      };
      return buildJobResults({ headers, chunks }, outcomes, loadPayload, undefined, controller.signal, numbering, collector, versionOf);
    })().then(
      (results) => {
        // A transition: React renders the grown grid in slices of a few milliseconds, so the
        // first rows' mount (and their cells' first read) is not one task on the page's thread.
        if (!controller.signal.aborted) startTransition(() => setSettled({ key, results, error: null }));
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const message = `The results could not be read from this browser's storage: ${error instanceof Error ? error.message : String(error)}`;
        setSettled((previous) => ({ key, results: previous?.results ?? null, error: message }));
      },
    );
    return () => controller.abort();
    // chunks, headers and versions change only with the job's rows and batches; `key` says when to read again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, store]);

  const retry = () => setAttempt((n) => n + 1);
  if (settled?.key !== key) return { state: { status: 'loading', results: settled?.results ?? null }, retry };
  if (settled.error !== null) return { state: { status: 'error', message: settled.error, results: settled.results }, retry };
  return { state: { status: 'ready', results: settled.results! }, retry };
}
