// Every change of an import job, of its chunks and of its batches, as one pure function:
// transition(job, event) → the job afterwards, or the sentence that says why the event is refused.
// The store applies an event atomically (job-store.ts); the submit loop, the runner and the pages'
// buttons only name events. Nothing else changes a job once it is made (madeJob).
//
//   chunk   pending ─claim→ sending ─accepted→ accepted (its batch begins)
//                                   ─rejected→ rejected (its rows count as skipped, with the sentence)
//                                   ─lost→ unknown ─resend→ pending
//                                                  ─skip→ skipped
//                                   ─returned→ pending (429, never sent, key refused: no attempt counted)
//                                   ─interrupted→ unknown (the page closed while it was being sent)
//           pending | sending ─split→ pending pieces under new ids, the same rows in the same order
//           pending | unknown ─cancel→ skipped
//   batch   processing ─polled→ processing … ─polled (final)→ finished ─followed-up→ tracking settled
//   job     running ─returned (with a reason)→ paused ─resume→ running
//           running ─hold (a reason)→ paused: the runner cannot send it now (no key after a restart)
//           running | paused ─cancel→ cancelled (accepted batches still finish)
//           after every event: every chunk final and every batch finished → finished (done)
import { applyDigest, initialProgress } from './batch-summary';
import type { BatchDigest, BatchHeadline, BatchOutcome, BatchProgress, ChunkStatus, ImportJob, JobChunk } from './import-job';
import { progressAfterFollowUp, startFollowUps, type TrackingFollowUp } from './runner/tracking-follow-up';

/** A piece of rows as cut (chunking.ts): what a chunk record is made from. */
export interface ChunkRows {
  rowNumbers: readonly number[];
  withoutReference: number;
}

export type JobEvent = { at: number } & (
  /** The submit loop takes `chunkId`, the first pending chunk, to send it now. */
  | { type: 'claim'; chunkId: number }
  /** The service took the chunk's rows as batch `batch`. */
  | { type: 'accepted'; chunkId: number; batch: BatchHeadline }
  /** The service refused the rows (a 4xx other than 429 and the size caps), or they were not found. */
  | { type: 'rejected'; chunkId: number; error: string; httpStatus: number | null }
  /** No readable answer came (5xx, network, unreadable 2xx): the rows may have been imported. */
  | { type: 'lost'; chunkId: number; error: string }
  /** The service did nothing with the request (429), or it never left: back in the queue. With `pause`, the job waits for the user. */
  | { type: 'returned'; chunkId: number; pause: string | null }
  /** Every chunk a closed page left `sending`. */
  | { type: 'interrupted' }
  /** The chunk refused for its size, cut into `pieces` (at least two), which take ids from `nextChunkId`. */
  | { type: 'split'; chunkId: number; pieces: readonly ChunkRows[] }
  /** The user's answers to an unknown chunk. */
  | { type: 'resend'; chunkId: number }
  | { type: 'skip'; chunkId: number }
  /** The runner cannot send the job now (the key it needs is not here): it waits, saying why. */
  | { type: 'hold'; reason: string }
  /** The user stops sending; or takes a paused job up again. */
  | { type: 'cancel' }
  | { type: 'resume' }
  /** The user opts in or out of a notification when it finishes in a hidden tab. */
  | { type: 'notify'; on: boolean }
  /** The dropped file's SHA-256, known after Send. */
  | { type: 'content-hash'; hash: string }
  /** A poll of one of the job's batches, read against its chunk's rows. */
  | { type: 'polled'; digest: BatchDigest }
  /** A tracking follow-up check read; `outcome` is the batch's outcome it changed (null: unchanged). */
  | { type: 'followed-up'; followUp: TrackingFollowUp; outcome: BatchOutcome | null }
);

export type Transition = { job: ImportJob; refused: null } | { job: null; refused: string };

/** What a chunk records for rows the user stopped before they were sent. */
const CANCELLED_REASON = 'cancelled by you before it was sent';
const SKIPPED_UNKNOWN_REASON = 'its answer was lost and you chose not to send it again; it may or may not have been imported';
const INTERRUPTED_ERROR = 'The page closed while this chunk was being sent; it may or may not have been imported.';

/** What a job is made of: everything but the chunks' rows, which the store keeps apart. */
export type JobFields = Pick<ImportJob, 'id' | 'source' | 'endpoint' | 'headers' | 'chunkRows' | 'serviceUrl' | 'rowsRead' | 'numbering' | 'skippedBeforeSend' | 'notify'> & { at: number };

/** A new job: running, its rows cut into pending chunks 0, 1, 2… The rows must add up. */
export function madeJob(fields: JobFields, cut: readonly ChunkRows[]): ImportJob {
  const sent = cut.reduce((sum, chunk) => sum + chunk.rowNumbers.length, 0);
  if (sent + fields.skippedBeforeSend.length !== fields.rowsRead) {
    throw new RangeError(`Rows read (${fields.rowsRead}) must equal rows to send (${sent}) plus rows skipped (${fields.skippedBeforeSend.length}).`);
  }
  if (sent === 0) throw new RangeError('There are no rows to send.');
  const { at, ...rest } = fields;
  const chunks = pendingChunks(cut, 0, 0);
  return { ...rest, createdAt: at, updatedAt: at, finishedAt: null, chunks, nextChunkId: chunks.length, batches: {}, runState: 'running', pausedReason: null };
}

/** Whether the job has no work left: every chunk final, every accepted chunk's batch finished. */
export function isJobFinished(job: ImportJob): boolean {
  return job.chunks.every((chunk) => {
    if (chunk.state.status === 'accepted') return job.batches[chunk.state.batchId]?.finishedAt != null;
    return chunk.state.status === 'rejected' || chunk.state.status === 'skipped';
  });
}

/** The chunk the submit loop sends next: the first pending one, while the job runs. */
export function nextChunkToSend(job: ImportJob): JobChunk | undefined {
  return job.runState === 'running' ? job.chunks.find((chunk) => chunk.state.status === 'pending') : undefined;
}

export function transition(job: ImportJob, event: JobEvent): Transition {
  const next = step(job, event);
  if (typeof next === 'string') return { job: null, refused: next };
  return { job: finished({ ...next, updatedAt: event.at }, event.at), refused: null };
}

/** The finished rule, after every event: a job with no work left is finished, once. */
function finished(job: ImportJob, at: number): ImportJob {
  if (job.finishedAt !== null || !isJobFinished(job)) return job;
  return { ...job, finishedAt: at, runState: job.runState === 'cancelled' ? 'cancelled' : 'finished' };
}

const rowsOf = (chunk: JobChunk) => (chunk.rowCount === 1 ? `Row ${chunk.firstRow} is` : `Rows ${chunk.firstRow}–${chunk.lastRow} are`);

/** The chunk, if it is in one of `statuses`; else why the event does not apply to it. */
function chunkIn(job: ImportJob, chunkId: number, statuses: readonly ChunkStatus[], what: string): JobChunk | string {
  const chunk = job.chunks.find((c) => c.id === chunkId);
  if (!chunk) return `There is no chunk ${chunkId} in this job.`;
  if (!statuses.includes(chunk.state.status)) return `${rowsOf(chunk)} ${chunk.state.status}: ${what}.`;
  return chunk;
}

const withChunk = (job: ImportJob, chunkId: number, change: (chunk: JobChunk) => JobChunk): ImportJob => ({
  ...job,
  chunks: job.chunks.map((chunk) => (chunk.id === chunkId ? change(chunk) : chunk)),
});

function step(job: ImportJob, event: JobEvent): ImportJob | string {
  const { at } = event;
  switch (event.type) {
    case 'claim': {
      if (job.runState !== 'running') return `The job is ${job.runState}: nothing is sent.`;
      const chunk = chunkIn(job, event.chunkId, ['pending'], 'only a pending chunk is sent');
      if (typeof chunk === 'string') return chunk;
      if (nextChunkToSend(job) !== chunk) return `Chunks go in order: ${rowsOf(nextChunkToSend(job)!).toLowerCase()} sent first.`;
      return withChunk(job, chunk.id, (c) => ({ ...c, state: { status: 'sending', since: at }, attempts: c.attempts + 1 }));
    }
    case 'accepted': {
      const chunk = chunkIn(job, event.chunkId, ['sending'], 'only a chunk being sent is answered');
      if (typeof chunk === 'string') return chunk;
      const batch: BatchProgress = initialProgress(event.batch, chunk.id, at);
      return {
        ...withChunk(job, chunk.id, (c) => ({ ...c, state: { status: 'accepted', batchId: event.batch.id, at } })),
        batches: { ...job.batches, [event.batch.id]: batch },
      };
    }
    case 'rejected': {
      const chunk = chunkIn(job, event.chunkId, ['sending'], 'only a chunk being sent is answered');
      if (typeof chunk === 'string') return chunk;
      return withChunk(job, chunk.id, (c) => ({ ...c, state: { status: 'rejected', error: event.error, httpStatus: event.httpStatus, at } }));
    }
    case 'lost': {
      const chunk = chunkIn(job, event.chunkId, ['sending'], 'only a chunk being sent loses its answer');
      if (typeof chunk === 'string') return chunk;
      return withChunk(job, chunk.id, (c) => ({ ...c, state: { status: 'unknown', error: event.error, at } }));
    }
    case 'returned': {
      const chunk = chunkIn(job, event.chunkId, ['sending'], 'only a chunk being sent comes back');
      if (typeof chunk === 'string') return chunk;
      // A job cancelled while the request was out sends nothing more: the rows were not imported.
      const state = job.runState === 'cancelled' ? { status: 'skipped' as const, reason: CANCELLED_REASON, at } : { status: 'pending' as const };
      const returned = withChunk(job, chunk.id, (c) => ({ ...c, state, attempts: c.attempts - 1 }));
      return event.pause !== null && job.runState === 'running' ? { ...returned, runState: 'paused', pausedReason: event.pause } : returned;
    }
    case 'interrupted': {
      if (!job.chunks.some((c) => c.state.status === 'sending')) return 'No chunk of this job is being sent.';
      return { ...job, chunks: job.chunks.map((c) => (c.state.status === 'sending' ? { ...c, state: { status: 'unknown', error: INTERRUPTED_ERROR, at } } : c)) };
    }
    case 'split': {
      const chunk = chunkIn(job, event.chunkId, ['pending', 'sending'], 'only a chunk not yet answered is split');
      if (typeof chunk === 'string') return chunk;
      if (event.pieces.length < 2) return `${rowsOf(chunk)} not split: a split makes two pieces or more.`;
      const rows = event.pieces.flatMap((piece) => piece.rowNumbers);
      if (rows.length !== chunk.rowCount || rows[0] !== chunk.firstRow || rows.at(-1) !== chunk.lastRow) {
        return `${rowsOf(chunk)} not split: the pieces hold ${rows.length} rows, the chunk ${chunk.rowCount}.`;
      }
      const pieces = pendingChunks(event.pieces, job.nextChunkId, chunk.firstPosition);
      const at = job.chunks.indexOf(chunk);
      return { ...job, nextChunkId: job.nextChunkId + pieces.length, chunks: [...job.chunks.slice(0, at), ...pieces, ...job.chunks.slice(at + 1)] };
    }
    case 'resend': {
      const chunk = chunkIn(job, event.chunkId, ['unknown'], 'only a chunk whose answer was lost is sent again');
      if (typeof chunk === 'string') return chunk;
      const resent = withChunk(job, chunk.id, (c) => ({ ...c, state: { status: 'pending' } }));
      return job.runState === 'finished' ? { ...resent, runState: 'running' } : resent;
    }
    case 'skip': {
      const chunk = chunkIn(job, event.chunkId, ['unknown'], 'only a chunk whose answer was lost is skipped');
      if (typeof chunk === 'string') return chunk;
      return withChunk(job, chunk.id, (c) => ({ ...c, state: { status: 'skipped', reason: SKIPPED_UNKNOWN_REASON, at } }));
    }
    case 'cancel': {
      if (job.runState === 'finished' || job.runState === 'cancelled') return `The job is already ${job.runState}.`;
      const chunks = job.chunks.map((c): JobChunk => (c.state.status === 'pending' || c.state.status === 'unknown' ? { ...c, state: { status: 'skipped', reason: CANCELLED_REASON, at } } : c));
      return { ...job, chunks, runState: 'cancelled', pausedReason: null };
    }
    case 'hold':
      if (job.runState !== 'running') return `Only a running job waits; this one is ${job.runState}.`;
      return { ...job, runState: 'paused', pausedReason: event.reason };
    case 'resume':
      if (job.runState !== 'paused') return `Only a paused job resumes; this one is ${job.runState}.`;
      return { ...job, runState: 'running', pausedReason: null };
    case 'notify':
      if (job.notify === event.on) return `The notification is already ${event.on ? 'on' : 'off'}.`;
      return { ...job, notify: event.on };
    case 'content-hash':
      if (job.source.kind !== 'file') return 'Only a job made from a file has a content hash.';
      return { ...job, source: { ...job.source, contentHash: event.hash } };
    case 'polled':
      return polled(job, event.digest, at);
    case 'followed-up': {
      const { followUp, outcome } = event;
      const followUps = job.trackingFollowUps ?? [];
      if (!followUps.some((f) => f.batchId === followUp.batchId)) return `Batch ${followUp.batchId} has no tracking to follow up.`;
      const batch = job.batches[followUp.batchId];
      return {
        ...job,
        trackingFollowUps: followUps.map((f) => (f.batchId === followUp.batchId ? followUp : f)).filter((f) => f.pending.length > 0),
        batches: batch && outcome ? { ...job.batches, [batch.batchId]: progressAfterFollowUp(batch, outcome) } : job.batches,
      };
    }
  }
}

/**
 * A poll's digest merged into its batch. A final digest finishes the batch: its items are in the
 * digest, or the reader saved them (outcomeSaved); shipments still tracking are followed up.
 */
function polled(job: ImportJob, digest: BatchDigest, at: number): ImportJob | string {
  const saved = digest.outcomeSaved;
  if (saved && !saved.jobKept) return `Batch ${digest.id}’s results were not kept: its job was deleted meanwhile.`;
  const previous = job.batches[digest.id];
  if (!previous) return `Batch ${digest.id} is not one of this job’s batches.`;
  const { progress, outcome } = applyDigest(previous, digest, job.id, at);
  const batch = saved ? { ...progress, finishedAt: at } : progress;
  const pending: TrackingFollowUp[] = saved
    ? saved.trackingPending.length > 0
      ? [{ batchId: digest.id, pending: saved.trackingPending, failures: {}, checks: 0, lastCheckAt: null, nextPage: 1 }]
      : []
    : outcome
      ? startFollowUps([outcome])
      : [];
  return {
    ...job,
    batches: { ...job.batches, [digest.id]: batch },
    ...(pending.length > 0 ? { trackingFollowUps: [...(job.trackingFollowUps ?? []).filter((f) => f.batchId !== digest.id), ...pending] } : {}),
  };
}

/** Pending chunk records for rows already cut, numbered from `firstId`, placed from `firstPosition`. */
function pendingChunks(cut: readonly ChunkRows[], firstId: number, firstPosition: number): JobChunk[] {
  let position = firstPosition;
  return cut.map((piece, index) => {
    const record: JobChunk = {
      id: firstId + index,
      firstPosition: position,
      rowCount: piece.rowNumbers.length,
      firstRow: piece.rowNumbers[0] ?? 0,
      lastRow: piece.rowNumbers.at(-1) ?? 0,
      withoutReference: piece.withoutReference,
      state: { status: 'pending' },
      attempts: 0,
    };
    position += record.rowCount;
    return record;
  });
}
