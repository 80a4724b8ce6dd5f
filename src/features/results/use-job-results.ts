// A job's results, held by the results thread (jobs/thread/results-session.ts): the page opens
// them and keeps their summary (columns, a count per filter), never their rows. While the job
// runs, they are opened again whenever a batch finishes (or the tracking follow-up rewrites one),
// and the thread joins that batch alone. Retry after an error opens them again.
import { startTransition, useEffect, useState } from 'react';
import type { ImportJob } from '../../jobs/import-job';
import type { ResultsThread } from '../../jobs/thread/results-reader';
import { finishedVersions, type ResultsRequests, type ResultsSummary } from '../../jobs/thread/results-protocol';
import type { RowNumbering } from '../../spreadsheet/row-numbering';

export type JobResultsState<S extends ResultsSummary = ResultsSummary> =
  | { status: 'loading'; results: S | null }
  | { status: 'ready'; results: S }
  | { status: 'error'; message: string; results: S | null };

/** Batches of the job that have finished: the results grow with this number. */
export function finishedBatches(job: ImportJob): number {
  return Object.values(job.batches).filter((batch) => batch.finishedAt !== null).length;
}

/** The page's numbers for the results it opened in the thread. */
let lastSession = 0;

/** This component's results in the thread, closed when it unmounts. */
export function useResultsSession(thread: ResultsThread): number {
  const [session] = useState(() => ++lastSession);
  useEffect(() => () => void thread.request('results-close', { session }).catch(() => undefined), [thread, session]);
  return session;
}

/** Opens results in the thread whenever `key` changes (none while it is null); the last summary stays shown meanwhile. */
export function useOpenResults<S extends ResultsSummary = ResultsSummary>(
  thread: ResultsThread,
  key: string | null,
  open: (session: number) => Promise<S>,
  failure: string,
): { state: JobResultsState<S>; retry: () => void } {
  const session = useResultsSession(thread);
  const [attempt, setAttempt] = useState(0);
  const wanted = key === null ? null : `${key}:${attempt}`;
  const [settled, setSettled] = useState<{ key: string; results: S | null; error: string | null } | null>(null);

  useEffect(() => {
    if (wanted === null) return;
    let current = true;
    open(session).then(
      // A transition: React renders the grown grid in slices, not one task on the page's thread.
      (results) => current && startTransition(() => setSettled({ key: wanted, results, error: null })),
      (error: unknown) => {
        if (!current) return;
        const message = `${failure}: ${error instanceof Error ? error.message : String(error)}`;
        setSettled((previous) => ({ key: wanted, results: previous?.results ?? null, error: message }));
      },
    );
    return () => {
      current = false;
    };
    // `wanted` says when to open again; `open` is made anew on each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wanted, thread, session]);

  const retry = () => setAttempt((n) => n + 1);
  if (wanted === null || settled?.key !== wanted) return { state: { status: 'loading', results: settled?.results ?? null }, retry };
  if (settled.error !== null) return { state: { status: 'error', message: settled.error, results: settled.results }, retry };
  return { state: { status: 'ready', results: settled.results! }, retry };
}

/** A job's results, read by the thread from the job store's database (`database`). */
export function useJobResults(job: ImportJob, thread: ResultsThread, database: string, numbering: RowNumbering): { state: JobResultsState; retry: () => void } {
  const versions = [...finishedVersions(job)].map(([batchId, version]) => `${batchId}=${version}`).join(',');
  const request: Omit<ResultsRequests['results-open-job'], 'session'> = { database, jobId: job.id, numbering };
  return useOpenResults(thread, `${database}:${job.id}:${numbering}:${versions}`, (session) => thread.request('results-open-job', { ...request, session }), "The results could not be read from this browser's storage");
}
