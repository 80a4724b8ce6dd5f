// A job's results, held by the results thread (jobs/thread/results-session.ts): the page opens
// them and keeps their summary (columns, a count per filter), never their rows. While the job
// runs, they are opened again whenever a batch finishes (or the tracking follow-up rewrites one),
// and the thread joins that batch alone. Retry after an error opens them again. A job the
// console's server runs keeps its outcomes and payloads there: before each open, the page's HTTP
// module has the thread fetch what finished since (each outcome, each chunk's payload once),
// which the thread holds and joins; the page sees only how many rows each brought.
import { startTransition, useEffect, useRef, useState } from 'react';
import { HttpError } from '../../api/api-error';
import { type ApiTarget, httpDepsWith } from '../../api/http-client';
import { serverJobOutcomeBody, serverJobPayloadBody } from '../../api/server-jobs';
import type { ImportJob } from '../../jobs/import-job';
import type { ResultsThread } from '../../jobs/thread/results-reader';
import { finishedVersions, type ResultsRequests, type ResultsSummary, type ServerJobRecord } from '../../jobs/thread/results-protocol';
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

/** Requests the page has the thread make at once for a server-run job's results. */
const SERVER_READS_AT_ONCE = 4;

const notFound = (error: unknown) => error instanceof HttpError && error.status === 404;

/**
 * Has the thread fetch and hold what it lacks of a server-run job's finished batches: each
 * outcome not read as of its version, and its chunk's payload once. `read` says what was read
 * (`batch:<id>` → its version, `chunk:<id>`) and is updated. An outcome the server does not have
 * yet is asked for again at the next open; a payload it does not keep is not (the rows are then empty).
 */
export async function readServerJobResults(target: ApiTarget, job: ImportJob, thread: ResultsThread, read: Map<string, string>, signal?: AbortSignal): Promise<void> {
  const wanted = [...finishedVersions(job)].filter(([batchId, version]) => read.get(`batch:${batchId}`) !== version);
  const readOne = async ([batchId, version]: [string, string]) => {
    const chunkId = job.batches[batchId]?.chunkId;
    if (chunkId !== undefined && !read.has(`chunk:${chunkId}`)) {
      try {
        await thread.serverJobHeld(await serverJobPayloadBody(target, job.id, chunkId, signal, httpDepsWith(thread.fetchReading({ kind: 'server-payload', jobId: job.id }))));
      } catch (error) {
        if (!notFound(error)) throw error;
      }
      read.set(`chunk:${chunkId}`, '');
    }
    try {
      await thread.serverJobHeld(await serverJobOutcomeBody(target, job.id, batchId, signal, httpDepsWith(thread.fetchReading({ kind: 'server-outcome', jobId: job.id }))));
      read.set(`batch:${batchId}`, version);
    } catch (error) {
      if (!notFound(error)) throw error;
    }
  };
  let next = 0;
  const lane = async () => {
    while (next < wanted.length) await readOne(wanted[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(SERVER_READS_AT_ONCE, wanted.length) }, lane));
}

/** What the thread needs of the job's record to open its results. */
export function serverJobRecord(job: ImportJob): ServerJobRecord {
  return { id: job.id, headers: job.headers, chunks: job.chunks, batches: job.batches, ...(job.trackingFollowUps ? { trackingFollowUps: job.trackingFollowUps } : {}) };
}

/**
 * A job's results: read by the thread from the job store's database (`database`), or, for a job
 * the console's server runs, from what the thread fetched of it with `target`'s connection.
 */
export function useJobResults(job: ImportJob, thread: ResultsThread, database: string, numbering: RowNumbering, target: ApiTarget | null = null): { state: JobResultsState; retry: () => void } {
  const { key, open, failure } = useJobOpening(job, thread, database, numbering, target);
  return useOpenResults(thread, key, open, failure);
}

/** How the job's results are opened, and when again. */
function useJobOpening(job: ImportJob, thread: ResultsThread, database: string, numbering: RowNumbering, target: ApiTarget | null) {
  const versions = [...finishedVersions(job)].map(([batchId, version]) => `${batchId}=${version}`).join(',');
  // What this page's session had the thread fetch of a server-run job.
  const serverRead = useRef(new Map<string, string>());
  const request: Omit<ResultsRequests['results-open-job'], 'session'> = { database, jobId: job.id, numbering };
  const openBrowserJob = (session: number) => thread.request('results-open-job', { ...request, session });
  const openServerJob = async (session: number) => {
    if (!target) throw new Error('This job runs on the console’s server, which this page is not connected to.');
    try {
      await readServerJobResults(target, job, thread, serverRead.current);
      return await thread.request('results-open-server-job', { session, job: serverJobRecord(job), numbering });
    } catch (error) {
      // Read everything again at the next open: the thread may no longer hold what was read.
      serverRead.current.clear();
      throw error;
    }
  };
  if (job.runsOn === 'console-server') {
    // Opened again once the connection is there (never keyed by the API key itself).
    return { key: `server:${job.id}:${numbering}:${versions}:${target ? target.baseUrl : 'unconnected'}`, open: openServerJob, failure: 'The results could not be read from the console’s server' };
  }
  return { key: `${database}:${job.id}:${numbering}:${versions}`, open: openBrowserJob, failure: "The results could not be read from this browser's storage" };
}
