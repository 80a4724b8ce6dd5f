// The submit queue (DESIGN §5): a job's chunks go out one request at a time, in order, paced by
// the shared rate-limit budget. What each answer does to the chunk:
//   2xx with a batch            → accepted(batch id)
//   429 (after waiting it out)  → still pending, never a failure
//   413, or 400 naming a cap    → split (to the cap the sentence names, else in halves), resent
//   401 / 403                   → the job pauses: the key was refused
//   never sent (NotSentError)   → the job pauses, the chunk still pending
//   5xx, network, unreadable    → unknown: it may have been imported, the user decides
//   any other 4xx               → rejected(error): its rows count as skipped with the sentence
// Every request to this page's own server carries the chunk's Idempotency-Key (chunkIdempotencyKey),
// the same on every attempt and on the user's Resend, so a repeat gets the first batch back.
import { ApiError, HttpError, NotSentError } from '../api/api-error';
import { type ApiTarget, type HttpDeps, httpDepsWith } from '../api/http-client';
import { importFile, importList } from '../api/imports';
import type { BatchHeadline, BatchReader, ChunkPayload, ImportJob, JobChunk } from './import-job';
import type { JobStore } from './job-store';
import { initialProgress } from './batch-summary';

export interface SubmitDeps {
  store: Pick<JobStore, 'getJob' | 'getPayload' | 'updateJob' | 'splitChunk'>;
  send: (payload: ChunkPayload, job: ImportJob, signal: AbortSignal) => Promise<BatchHeadline>;
  /** Resolves when the import bucket allows a request (waits out a 429's pause or an empty bucket). */
  waitForBudget: (signal: AbortSignal) => Promise<void>;
  now: () => number;
}

export type SubmitStop = 'nothing-pending' | 'paused' | 'not-running' | 'gone';

const CAP_WORDS = /\b(too large|too many|too big|at most|maximum|max|limit|cap|exceeds?)\b/i;
const SIZE_WORDS = /\b(rows?|lines?|records?|shipments?|requests?|items?|bytes?|size|[kmg]b)\b/i;

/** A 413, or a 400 whose sentence names a size or row cap: the chunk is too big, not wrong. */
export function isCapAnswer(error: HttpError): boolean {
  if (error.status === 413) return true;
  return error.status === 400 && CAP_WORDS.test(error.message) && SIZE_WORDS.test(error.message);
}

/** The row cap a refusal names ("one import takes at most 300", "limit is 300 rows"), if any. */
export function namedRowCap(message: string): number | null {
  const match = /(?:at most|maximum(?: of)?|max(?:imum)?|limit(?: is| of)?|up to)\s+(\d[\d,]*)\s*(rows?|lines?|records?|shipments?|requests?|items?)?/i.exec(message);
  if (!match || /bytes?|[kmg]b/i.test(message.slice(match.index + match[0].length, match.index + match[0].length + 6))) return null;
  const n = Number(match[1]!.replace(/,/g, ''));
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Claims the first pending chunk (pending → sending) in one atomic write, or says why not. */
async function claimNext(deps: SubmitDeps, jobId: string): Promise<JobChunk | SubmitStop> {
  let claimed: JobChunk | null = null;
  let stop: SubmitStop = 'nothing-pending';
  try {
    await deps.store.updateJob(jobId, (job) => {
      if (job.runState !== 'running') {
        stop = job.runState === 'paused' ? 'paused' : 'not-running';
        return false;
      }
      const chunk = job.chunks.find((c) => c.state.status === 'pending');
      if (!chunk) return false;
      chunk.state = { status: 'sending', since: deps.now() };
      chunk.attempts++;
      claimed = { ...chunk };
    });
  } catch {
    return 'gone';
  }
  return claimed ?? stop;
}

/** Sends the job's pending chunks one at a time until none is left or the job stops running. */
export async function sendPendingChunks(jobId: string, deps: SubmitDeps, signal: AbortSignal): Promise<SubmitStop> {
  for (;;) {
    const job = await deps.store.getJob(jobId);
    if (!job) return 'gone';
    if (job.runState !== 'running') return job.runState === 'paused' ? 'paused' : 'not-running';
    if (!job.chunks.some((c) => c.state.status === 'pending')) return 'nothing-pending';
    // Wait for the budget before the chunk is marked as sending (a tab closed while waiting leaves it pending).
    await deps.waitForBudget(signal);
    const claimed = await claimNext(deps, jobId);
    if (typeof claimed === 'string') return claimed;
    const outcome = await sendOne(jobId, claimed, deps, signal);
    if (outcome === 'paused') return 'paused';
  }
}

async function sendOne(jobId: string, chunk: JobChunk, deps: SubmitDeps, signal: AbortSignal): Promise<'ok' | 'paused'> {
  const job = await deps.store.getJob(jobId);
  const payload = await deps.store.getPayload(jobId, chunk.id);
  const setState = (change: (c: JobChunk, job: ImportJob) => void) =>
    deps.store.updateJob(jobId, (j) => {
      const current = j.chunks.find((c) => c.id === chunk.id);
      if (current?.state.status !== 'sending') return false;
      change(current, j);
    });
  if (!job || !payload) {
    await setState((c) => {
      c.state = { status: 'rejected', error: 'Its rows were not found in this browser’s storage.', httpStatus: null, at: deps.now() };
    });
    return 'ok';
  }
  let batch: BatchHeadline;
  try {
    batch = await deps.send(payload, job, signal);
  } catch (error) {
    if (signal.aborted) throw error; // the page is going away: the chunk stays `sending`, resume makes it unknown
    return handleFailure(jobId, chunk, error, deps, setState);
  }
  const at = deps.now();
  await setState((c, j) => {
    c.state = { status: 'accepted', batchId: batch.id, at };
    j.batches[batch.id] = initialProgress(batch, c.id, at);
  });
  return 'ok';
}

async function handleFailure(
  jobId: string,
  chunk: JobChunk,
  error: unknown,
  deps: SubmitDeps,
  setState: (change: (c: JobChunk, job: ImportJob) => void) => Promise<ImportJob>,
): Promise<'ok' | 'paused'> {
  const at = deps.now();
  if (error instanceof HttpError) {
    if (error.status === 429) {
      // The service did nothing with it: back in the queue, not counted as an attempt.
      await setState((c) => {
        c.state = { status: 'pending' };
        c.attempts--;
      });
      return 'ok';
    }
    if (error.keyRefused) {
      await setState((c, j) => {
        c.state = { status: 'pending' };
        c.attempts--;
        j.runState = 'paused';
        // The HttpError's sentence already says the key was refused, with the status.
        j.pausedReason = `${error.message} Connect again, then resume.`;
      });
      return 'paused';
    }
    if (isCapAnswer(error)) {
      const cap = namedRowCap(error.message);
      if (chunk.rowCount > 1 && (await deps.store.splitChunk(jobId, chunk.id, cap !== null && cap < chunk.rowCount ? cap : undefined))) {
        return 'ok';
      }
    }
    if (error.status >= 500) {
      await setState((c) => {
        c.state = { status: 'unknown', error: error.message, at };
      });
      return 'ok';
    }
    await setState((c) => {
      c.state = { status: 'rejected', error: error.message, httpStatus: error.status, at };
    });
    return 'ok';
  }
  if (error instanceof NotSentError) {
    // It never left the browser: still pending, and the job waits for the user, as for a refused key.
    await setState((c, j) => {
      c.state = { status: 'pending' };
      c.attempts--;
      j.runState = 'paused';
      j.pausedReason = error.message;
    });
    return 'paused';
  }
  // A network error, a dropped connection or an unreadable 2xx: it may have been imported.
  const message = error instanceof ApiError ? error.message : `Sending failed: ${describe(error)}`;
  await setState((c) => {
    c.state = { status: 'unknown', error: message, at };
  });
  return 'ok';
}

/**
 * The chunk's Idempotency-Key, derived rather than stored: a job's id is a random UUID and a
 * chunk's id is never reused within its job (a split chunk's halves get new ids), so the key
 * names exactly these rows, on every attempt and after a reload.
 */
export function chunkIdempotencyKey(jobId: string, chunkId: number): string {
  return `${jobId}:${chunkId}`;
}

/**
 * Whether imports carry the key: only to this page's own server (the sandbox, or proxy mode,
 * which forwards it). A service on another origin is reached cross-origin, and a header its CORS
 * preflight does not allow would fail every import there; its specification documents no key.
 */
export function sendsIdempotencyKey(baseUrl: string, pageOrigin: string | undefined): boolean {
  if (baseUrl === '') return true;
  if (pageOrigin === undefined) return false;
  try {
    return new URL(baseUrl, pageOrigin).origin === pageOrigin;
  } catch {
    return false;
  }
}

/**
 * Sends a chunk's rows to the endpoint its job uses (the CSV file import or the JSON list
 * import); `reader` reads the answer's batch (off the main thread in the console), and makes
 * the request itself where it has a fetch of its own.
 */
export function payloadSender(
  target: ApiTarget,
  reader: Pick<BatchReader, 'headline' | 'fetch'>,
  httpDeps: HttpDeps | undefined = reader.fetch ? httpDepsWith(reader.fetch) : undefined,
  pageOrigin: string | undefined = globalThis.location?.origin,
): SubmitDeps['send'] {
  const withKey = sendsIdempotencyKey(target.baseUrl, pageOrigin);
  return async (payload, job, signal) => {
    const key = withKey ? chunkIdempotencyKey(job.id, payload.chunkId) : undefined;
    const body =
      payload.body.format === 'csv'
        ? await importFile(target, payload.body.csv, fileNameFor(job, payload.chunkId), signal, httpDeps, key)
        : await importList(target, payload.body.requests, signal, httpDeps, key);
    return reader.headline(body);
  };
}

function fileNameFor(job: ImportJob, chunkId: number): string {
  const base = job.source.kind === 'file' ? job.source.fileName.replace(/\.[^.]*$/, '') : job.source.kind;
  return `${base.replace(/[^\w.-]+/g, '_').slice(0, 60) || 'import'}-part-${chunkId + 1}.csv`;
}
