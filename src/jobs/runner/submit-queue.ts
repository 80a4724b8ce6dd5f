// The submit queue (DESIGN §5): a job's chunks go out one request at a time, in order, paced by
// the shared rate-limit budget. What each answer means, as the machine's event (job-machine.ts):
//   2xx with a batch            → accepted(batch id)
//   429 (after waiting it out)  → returned: still pending, never a failure
//   413, or 400 naming a cap    → split (to the cap the sentence names, else in halves), resent
//   401 / 403                   → returned, and the job pauses: the key was refused
//   never sent (NotSentError)   → returned, and the job pauses
//   5xx, network, unreadable    → lost (unknown): it may have been imported, the user decides
//   any other 4xx               → rejected(error): its rows count as skipped with the sentence
// Every request to this page's own server carries the chunk's Idempotency-Key (chunkIdempotencyKey),
// the same on every attempt and on the user's Resend, so a repeat gets the first batch back.
import { ApiError, HttpError, NotSentError } from '../../api/api-error';
import { type ApiTarget, type HttpDeps, httpDepsWith } from '../../api/http-client';
import { importFile, importList, importReadByFetch } from '../../api/imports';
import type { BatchHeadline, BatchReader, ImportJob, JobChunk } from '../import-job';
import { type JobEvent, nextChunkToSend } from '../job-machine';
import type { JobStore } from '../job-store';

export interface SubmitDeps {
  store: Pick<JobStore, 'getJob' | 'apply' | 'splitChunk'>;
  /** Sends the chunk's rows (RowsNotFoundError: they are not kept) and reads the answer's batch. */
  send: (job: ImportJob, chunkId: number, signal: AbortSignal) => Promise<BatchHeadline>;
  /** Resolves when the import bucket allows a request (waits out a 429's pause or an empty bucket). */
  waitForBudget: (signal: AbortSignal) => Promise<void>;
  now: () => number;
}

/** Why sending stopped; `turn-over`: the job sent its share of this turn and has chunks left. */
export type SubmitStop = 'nothing-pending' | 'paused' | 'not-running' | 'gone' | 'turn-over';

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

/**
 * Sends the job's pending chunks one at a time until none is left or the job stops running, or
 * until `perTurn` of them went out (then `turn-over`: the runner gives the next job its turn).
 */
export async function sendPendingChunks(jobId: string, deps: SubmitDeps, signal: AbortSignal, perTurn = Infinity): Promise<SubmitStop> {
  for (let sent = 0; ; ) {
    if (sent >= perTurn) return 'turn-over';
    const job = await deps.store.getJob(jobId);
    if (!job) return 'gone';
    if (job.runState !== 'running') return job.runState === 'paused' ? 'paused' : 'not-running';
    const next = nextChunkToSend(job);
    if (!next) return 'nothing-pending';
    // Wait for the budget before the chunk is claimed (a tab closed while waiting leaves it pending).
    await deps.waitForBudget(signal);
    let claim;
    try {
      claim = await deps.store.apply(jobId, { type: 'claim', chunkId: next.id, at: deps.now() });
    } catch {
      return 'gone';
    }
    // Refused: the job changed while waiting (cancelled, paused, the chunk skipped); look again.
    if (claim.refused !== null) continue;
    const claimed = claim.job.chunks.find((c) => c.id === next.id)!;
    const outcome = await sendOne(claim.job, claimed, deps, signal);
    if (outcome === 'paused') return 'paused';
    sent++;
  }
}

async function sendOne(job: ImportJob, chunk: JobChunk, deps: SubmitDeps, signal: AbortSignal): Promise<'ok' | 'paused'> {
  const record = (event: JobEvent) => deps.store.apply(job.id, event);
  let batch: BatchHeadline;
  try {
    batch = await deps.send(job, chunk.id, signal);
  } catch (error) {
    if (signal.aborted) throw error; // the page is going away: the chunk stays `sending`, the next runner makes it unknown
    if (error instanceof RowsNotFoundError) {
      await record({ type: 'rejected', chunkId: chunk.id, error: error.message, httpStatus: null, at: deps.now() });
      return 'ok';
    }
    const answer = await failureEvent(job.id, chunk, error, deps);
    if (answer) await record(answer);
    return answer?.type === 'returned' && answer.pause !== null ? 'paused' : 'ok';
  }
  await record({ type: 'accepted', chunkId: chunk.id, batch, at: deps.now() });
  return 'ok';
}

/** What a failed request means for its chunk; null when it was split (the pieces are pending). */
async function failureEvent(jobId: string, chunk: JobChunk, error: unknown, deps: SubmitDeps): Promise<JobEvent | null> {
  const at = deps.now();
  const chunkId = chunk.id;
  if (error instanceof HttpError) {
    // The service did nothing with it: back in the queue, not counted as an attempt.
    if (error.status === 429) return { type: 'returned', chunkId, pause: null, at };
    // The HttpError's sentence already says the key was refused, with the status.
    if (error.keyRefused) return { type: 'returned', chunkId, pause: `${error.message} Connect again, then resume.`, at };
    if (isCapAnswer(error)) {
      const cap = namedRowCap(error.message);
      if (chunk.rowCount > 1 && (await deps.store.splitChunk(jobId, chunkId, cap !== null && cap < chunk.rowCount ? cap : undefined))) return null;
    }
    if (error.status >= 500) return { type: 'lost', chunkId, error: error.message, at };
    return { type: 'rejected', chunkId, error: error.message, httpStatus: error.status, at };
  }
  // It never left the browser: still pending, and the job waits for the user, as for a refused key.
  if (error instanceof NotSentError) return { type: 'returned', chunkId, pause: error.message, at };
  // A network error, a dropped connection or an unreadable 2xx: it may have been imported.
  return { type: 'lost', chunkId, error: error instanceof ApiError ? error.message : `Sending failed: ${describe(error)}`, at };
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

/** A chunk's rows are not kept (its job was deleted meanwhile): nothing was sent. */
export class RowsNotFoundError extends NotSentError {
  constructor(message = 'Its rows were not found in this browser’s storage.') {
    super(message);
  }
}

/**
 * Sends a chunk's rows to the endpoint its job uses (the CSV file import or the JSON list
 * import); `reader` reads the answer's batch (off the main thread in the console). A reader that
 * makes the request itself and reads the chunk's rows from `database` (the results thread) does
 * both in one step, so the rows never cross the page's thread; otherwise they are read here.
 */
export function payloadSender(
  target: ApiTarget,
  reader: Pick<BatchReader, 'headline' | 'fetch' | 'fetchReading'>,
  store: Pick<JobStore, 'getPayload'>,
  httpDeps: HttpDeps | undefined = reader.fetch ? httpDepsWith(reader.fetch) : undefined,
  pageOrigin: string | undefined,
  database?: string,
): SubmitDeps['send'] {
  const withKey = sendsIdempotencyKey(target.baseUrl, pageOrigin);
  return async (job, chunkId, signal) => {
    const key = withKey ? chunkIdempotencyKey(job.id, chunkId) : undefined;
    const fileName = fileNameFor(job, chunkId);
    if (reader.fetchReading && database !== undefined) {
      const rows = { database, jobId: job.id, chunkId, endpoint: job.endpoint, fileName };
      const reading = reader.fetchReading({ kind: 'headline', rows });
      return reader.headline(await importReadByFetch(target, job.endpoint, signal, httpDeps ? { ...httpDeps, fetch: reading } : httpDepsWith(reading), key));
    }
    const payload = await store.getPayload(job.id, chunkId);
    if (!payload) throw new RowsNotFoundError();
    const body =
      payload.body.format === 'csv'
        ? await importFile(target, payload.body.csv, fileName, signal, httpDeps, key)
        : await importList(target, payload.body.requests, signal, httpDeps, key);
    return reader.headline(body);
  };
}

function fileNameFor(job: ImportJob, chunkId: number): string {
  const base = job.source.kind === 'file' ? job.source.fileName.replace(/\.[^.]*$/, '') : job.source.kind;
  return `${base.replace(/[^\w.-]+/g, '_').slice(0, 60) || 'import'}-part-${chunkId + 1}.csv`;
}
