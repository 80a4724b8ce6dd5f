import { describe, expect, it } from 'vitest';
import { accountJob } from './accounting';
import type { BatchDigest, BatchHeadline, BatchOutcome, ImportJob, OutcomeItem } from './import-job';
import { type JobEvent, madeJob, transition, type Transition } from './job-machine';
import type { TrackingFollowUp } from './runner/tracking-follow-up';

/** Rows 2…n+1 of a file, cut into pieces of `size`; every other row has a reference. */
function cut(n: number, size: number, first = 2) {
  const pieces = [];
  for (let from = 0; from < n; from += size) {
    const rowNumbers = Array.from({ length: Math.min(size, n - from) }, (_, i) => first + from + i);
    pieces.push({ rowNumbers, withoutReference: rowNumbers.filter((row) => row % 2 === 1).length });
  }
  return pieces;
}

function newJob(rows = 10, size = 4, skipped = 0): ImportJob {
  return madeJob(
    {
      id: 'job-1', at: 100, source: { kind: 'file', fileName: 'ships.csv', size: 10, contentHash: null }, endpoint: 'file', headers: ['tracking_number'],
      chunkRows: size, serviceUrl: '', rowsRead: rows + skipped, numbering: 'Line', notify: false,
      skippedBeforeSend: Array.from({ length: skipped }, (_, i) => ({ rowNumber: 100 + i, reason: 'tracking_number is empty' })),
    },
    cut(rows, size),
  );
}

// The sentences a user reads in the job's accounting and its chunk list.
const CANCELLED_REASON = 'cancelled by you before it was sent';
const SKIPPED_UNKNOWN_REASON = 'its answer was lost and you chose not to send it again; it may or may not have been imported';
const INTERRUPTED_ERROR = 'The page closed while this chunk was being sent; it may or may not have been imported.';

/** Applies events in order; the first refusal stops it. */
function transitions(job: ImportJob, events: readonly JobEvent[]): Transition {
  let current: Transition = { job, refused: null };
  for (const event of events) {
    if (current.job === null) break;
    current = transition(current.job, event);
  }
  return current;
}

/** Applies events that must all apply; the job afterwards. */
function run(job: ImportJob, events: JobEvent[]): ImportJob {
  const result = transitions(job, events);
  if (result.job === null) throw new Error(`Refused: ${result.refused}`);
  return result.job;
}

const refusal = (job: ImportJob, event: JobEvent) => transition(job, event).refused;
const statuses = (job: ImportJob) => job.chunks.map((c) => c.state.status);
const headline = (id: string, total: number, status = 'processing'): BatchHeadline => ({ id, status, total, completed: 0, failureReason: null });
const item = (rowNumber: number, trackingStatus = 'succeeded', creationStatus = 'created'): OutcomeItem => ({
  rowNumber, creationStatus, trackingStatus, shipmentId: `s${rowNumber}`, reference: null, problems: [],
});
const counts = (created: number, failed = 0) => ({ created, updated: 0, failed, withWarnings: 0, trackingFailed: 0 });
function digest(id: string, total: number, items: (OutcomeItem | null)[] | null, extra: Partial<BatchDigest> = {}): BatchDigest {
  return {
    id, status: items ? 'completed' : 'processing', total, completed: items ? total : 1, failureReason: null,
    counts: counts(items ? total : 1), problems: [], problemCount: 0, unmatchedItems: 0, items, ...extra,
  };
}

/** Claims and accepts chunk `chunkId` as batch `b<chunkId>`. */
const sendAndAccept = (job: ImportJob, chunkId: number, at = 200): JobEvent[] => [
  { type: 'claim', chunkId, at },
  { type: 'accepted', chunkId, batch: headline(`b${chunkId}`, job.chunks.find((c) => c.id === chunkId)!.rowCount), at },
];

describe('a new job', () => {
  it('is running with its rows cut into pending chunks 0, 1, 2… placed in order', () => {
    const job = newJob(10, 4, 2);
    expect(job).toMatchObject({ runState: 'running', createdAt: 100, updatedAt: 100, finishedAt: null, nextChunkId: 3, batches: {} });
    expect(job.chunks.map((c) => [c.id, c.firstPosition, c.rowCount, c.firstRow, c.lastRow, c.withoutReference, c.state.status])).toEqual([
      [0, 0, 4, 2, 5, 2, 'pending'],
      [1, 4, 4, 6, 9, 2, 'pending'],
      [2, 8, 2, 10, 11, 1, 'pending'],
    ]);
    expect(accountJob(job)).toMatchObject({ read: 12, toSend: 10, skipped: 2, readAddsUp: true });
  });

  it('is refused when the rows do not add up, or there is nothing to send', () => {
    expect(() => madeJob({ ...newJob(), at: 0, rowsRead: 9, skippedBeforeSend: [] }, cut(10, 4))).toThrow('Rows read (9) must equal rows to send (10) plus rows skipped (0).');
    expect(() => madeJob({ ...newJob(), at: 0, rowsRead: 0, skippedBeforeSend: [] }, [])).toThrow('There are no rows to send.');
  });
});

describe('sending a chunk', () => {
  it('claim: the first pending chunk goes to sending, one attempt counted', () => {
    const job = run(newJob(), [{ type: 'claim', chunkId: 0, at: 150 }]);
    expect(job.chunks[0]).toMatchObject({ state: { status: 'sending', since: 150 }, attempts: 1 });
    expect(job.updatedAt).toBe(150);
  });

  it('claim is refused out of order, for a chunk not pending, and while the job does not run', () => {
    const job = newJob();
    expect(refusal(job, { type: 'claim', chunkId: 1, at: 1 })).toBe('Chunks go in order: rows 2–5 are sent first.');
    expect(refusal(job, { type: 'claim', chunkId: 9, at: 1 })).toBe('There is no chunk 9 in this job.');
    const sending = run(job, [{ type: 'claim', chunkId: 0, at: 1 }]);
    expect(refusal(sending, { type: 'claim', chunkId: 0, at: 1 })).toBe('Rows 2–5 are sending: only a pending chunk is sent.');
    const cancelled = run(job, [{ type: 'cancel', at: 1 }]);
    expect(refusal(cancelled, { type: 'claim', chunkId: 0, at: 1 })).toBe('The job is cancelled: nothing is sent.');
  });

  it('accepted: the chunk names its batch, which begins processing', () => {
    const job = run(newJob(), sendAndAccept(newJob(), 0, 300));
    expect(job.chunks[0]!.state).toEqual({ status: 'accepted', batchId: 'b0', at: 300 });
    expect(job.batches.b0).toMatchObject({ batchId: 'b0', chunkId: 0, status: 'processing', total: 4, acceptedAt: 300, finishedAt: null });
    expect(accountJob(job)).toMatchObject({ sent: 4, totalRequests: 4, toSend: 6, readAddsUp: true, sentMatchesBatches: true });
  });

  it('rejected: the rows count as skipped with the service’s sentence', () => {
    const job = run(newJob(), [{ type: 'claim', chunkId: 0, at: 1 }, { type: 'rejected', chunkId: 0, error: 'The file has no header.', httpStatus: 422, at: 2 }]);
    expect(job.chunks[0]!.state).toEqual({ status: 'rejected', error: 'The file has no header.', httpStatus: 422, at: 2 });
    expect(accountJob(job).skipReasons).toEqual([{ reason: 'refused by the service: The file has no header.', rows: 4 }]);
  });

  it('lost: the chunk is unknown, its rows neither sent nor skipped until the user decides', () => {
    const job = run(newJob(), [{ type: 'claim', chunkId: 0, at: 1 }, { type: 'lost', chunkId: 0, error: 'No answer came.', at: 2 }]);
    expect(job.chunks[0]!.state).toEqual({ status: 'unknown', error: 'No answer came.', at: 2 });
    expect(accountJob(job)).toMatchObject({ unknown: 4, unknownWithoutReference: 2, readAddsUp: true });
  });

  it('an answer is refused for a chunk that is not being sent', () => {
    const job = newJob();
    expect(refusal(job, { type: 'accepted', chunkId: 0, batch: headline('b', 4), at: 1 })).toBe('Rows 2–5 are pending: only a chunk being sent is answered.');
    expect(refusal(job, { type: 'rejected', chunkId: 0, error: 'x', httpStatus: 400, at: 1 })).toBe('Rows 2–5 are pending: only a chunk being sent is answered.');
    expect(refusal(job, { type: 'lost', chunkId: 0, error: 'x', at: 1 })).toBe('Rows 2–5 are pending: only a chunk being sent loses its answer.');
    expect(refusal(job, { type: 'returned', chunkId: 0, pause: null, at: 1 })).toBe('Rows 2–5 are pending: only a chunk being sent comes back.');
  });

  it('returned (a 429): pending again, the attempt not counted, the job still running', () => {
    const job = run(newJob(), [{ type: 'claim', chunkId: 0, at: 1 }, { type: 'returned', chunkId: 0, pause: null, at: 2 }]);
    expect(job.chunks[0]).toMatchObject({ state: { status: 'pending' }, attempts: 0 });
    expect(job.runState).toBe('running');
  });

  it('returned with a reason (key refused, never sent): pending again, and the job pauses with the sentence', () => {
    const job = run(newJob(), [{ type: 'claim', chunkId: 0, at: 1 }, { type: 'returned', chunkId: 0, pause: 'The service refused the API key (401). Connect again, then resume.', at: 2 }]);
    expect(job.chunks[0]).toMatchObject({ state: { status: 'pending' }, attempts: 0 });
    expect(job).toMatchObject({ runState: 'paused', pausedReason: 'The service refused the API key (401). Connect again, then resume.' });
  });

  it('returned to a job cancelled meanwhile: skipped as cancelled, so the job can finish', () => {
    const job = run(newJob(4, 4), [{ type: 'claim', chunkId: 0, at: 1 }, { type: 'cancel', at: 2 }, { type: 'returned', chunkId: 0, pause: 'Key refused.', at: 3 }]);
    expect(job.chunks[0]!.state).toEqual({ status: 'skipped', reason: CANCELLED_REASON, at: 3 });
    expect(job).toMatchObject({ runState: 'cancelled', pausedReason: null, finishedAt: 3 });
  });

  it('interrupted: every chunk a closed page left sending is unknown', () => {
    const job = run(newJob(), [{ type: 'claim', chunkId: 0, at: 1 }, { type: 'interrupted', at: 5 }]);
    expect(statuses(job)).toEqual(['unknown', 'pending', 'pending']);
    expect(job.chunks[0]!.state).toEqual({ status: 'unknown', error: INTERRUPTED_ERROR, at: 5 });
    expect(refusal(newJob(), { type: 'interrupted', at: 5 })).toBe('No chunk of this job is being sent.');
  });
});

describe('splitting a chunk refused for its size', () => {
  it('replaces it by pending pieces under new ids, in its place, with the same rows', () => {
    const job = run(newJob(10, 4), [{ type: 'claim', chunkId: 0, at: 1 }, { type: 'split', chunkId: 0, pieces: cut(4, 2), at: 2 }]);
    expect(job.chunks.map((c) => [c.id, c.firstPosition, c.rowCount, c.firstRow, c.lastRow, c.state.status, c.attempts])).toEqual([
      [3, 0, 2, 2, 3, 'pending', 0],
      [4, 2, 2, 4, 5, 'pending', 0],
      [1, 4, 4, 6, 9, 'pending', 0],
      [2, 8, 2, 10, 11, 'pending', 0],
    ]);
    expect(job.nextChunkId).toBe(5);
    expect(accountJob(job)).toMatchObject({ toSend: 10, readAddsUp: true });
  });

  it('is refused for one piece, for pieces that are not its rows, and for a chunk already answered', () => {
    const job = run(newJob(10, 4), [{ type: 'claim', chunkId: 0, at: 1 }]);
    expect(refusal(job, { type: 'split', chunkId: 0, pieces: cut(4, 4), at: 2 })).toBe('Rows 2–5 are not split: a split makes two pieces or more.');
    expect(refusal(job, { type: 'split', chunkId: 0, pieces: cut(3, 2), at: 2 })).toBe('Rows 2–5 are not split: the pieces hold 3 rows, the chunk 4.');
    const lost = run(job, [{ type: 'lost', chunkId: 0, error: 'x', at: 2 }]);
    expect(refusal(lost, { type: 'split', chunkId: 0, pieces: cut(4, 2), at: 3 })).toBe('Rows 2–5 are unknown: only a chunk not yet answered is split.');
  });
});

describe('the user’s decisions', () => {
  const lost = () => run(newJob(), [{ type: 'claim', chunkId: 0, at: 1 }, { type: 'lost', chunkId: 0, error: 'No answer came.', at: 2 }]);

  it('resend: an unknown chunk is pending again, attempts kept', () => {
    const job = run(lost(), [{ type: 'resend', chunkId: 0, at: 3 }]);
    expect(job.chunks[0]).toMatchObject({ state: { status: 'pending' }, attempts: 1 });
  });

  it('skip: an unknown chunk’s rows count as skipped, with why', () => {
    const job = run(lost(), [{ type: 'skip', chunkId: 0, at: 3 }]);
    expect(job.chunks[0]!.state).toEqual({ status: 'skipped', reason: SKIPPED_UNKNOWN_REASON, at: 3 });
    expect(accountJob(job).skipReasons).toEqual([{ reason: SKIPPED_UNKNOWN_REASON, rows: 4 }]);
  });

  it('resend and skip are refused for a chunk whose answer was not lost', () => {
    expect(refusal(newJob(), { type: 'resend', chunkId: 1, at: 3 })).toBe('Rows 6–9 are pending: only a chunk whose answer was lost is sent again.');
    expect(refusal(newJob(), { type: 'skip', chunkId: 1, at: 3 })).toBe('Rows 6–9 are pending: only a chunk whose answer was lost is skipped.');
  });

  it('cancel: pending and unknown chunks are skipped; the one being sent and accepted batches go on', () => {
    const base = newJob(16, 4);
    const job = run(base, [...sendAndAccept(base, 0), { type: 'claim', chunkId: 1, at: 3 }, { type: 'lost', chunkId: 1, error: 'x', at: 3 }, { type: 'claim', chunkId: 2, at: 4 }, { type: 'cancel', at: 5 }]);
    expect(statuses(job)).toEqual(['accepted', 'skipped', 'sending', 'skipped']);
    expect(job.chunks[1]!.state).toEqual({ status: 'skipped', reason: CANCELLED_REASON, at: 5 });
    expect(job).toMatchObject({ runState: 'cancelled', finishedAt: null });
  });

  it('cancel clears a pause, and is refused once the job is finished or cancelled', () => {
    const paused = run(newJob(), [{ type: 'claim', chunkId: 0, at: 1 }, { type: 'returned', chunkId: 0, pause: 'Key refused.', at: 2 }]);
    expect(run(paused, [{ type: 'cancel', at: 3 }])).toMatchObject({ runState: 'cancelled', pausedReason: null });
    const cancelled = run(newJob(), [{ type: 'cancel', at: 3 }]);
    expect(refusal(cancelled, { type: 'cancel', at: 4 })).toBe('The job is already cancelled.');
  });

  it('resume: a paused job runs again; anything else is refused', () => {
    const paused = run(newJob(), [{ type: 'claim', chunkId: 0, at: 1 }, { type: 'returned', chunkId: 0, pause: 'Key refused.', at: 2 }]);
    expect(run(paused, [{ type: 'resume', at: 3 }])).toMatchObject({ runState: 'running', pausedReason: null });
    expect(refusal(newJob(), { type: 'resume', at: 3 })).toBe('Only a paused job resumes; this one is running.');
  });

  it('hold: a running job waits with the sentence, chunks untouched, until resumed; anything else is refused', () => {
    const held = run(newJob(), [{ type: 'hold', reason: 'Waiting for the key.', at: 1 }]);
    expect(held).toMatchObject({ runState: 'paused', pausedReason: 'Waiting for the key.' });
    expect(statuses(held)).toEqual(statuses(newJob()));
    expect(run(held, [{ type: 'resume', at: 2 }])).toMatchObject({ runState: 'running', pausedReason: null });
    expect(refusal(held, { type: 'hold', reason: 'again', at: 2 })).toBe('Only a running job waits; this one is paused.');
  });

  it('notify and the content hash are recorded once', () => {
    const job = run(newJob(), [{ type: 'notify', on: true, at: 1 }, { type: 'content-hash', hash: 'abc', at: 2 }]);
    expect(job).toMatchObject({ notify: true, source: { contentHash: 'abc' } });
    expect(refusal(job, { type: 'notify', on: true, at: 3 })).toBe('The notification is already on.');
    const quickAdd = { ...newJob(), source: { kind: 'quick-add' as const } };
    expect(refusal(quickAdd, { type: 'content-hash', hash: 'abc', at: 3 })).toBe('Only a job made from a file has a content hash.');
  });
});

describe('a batch', () => {
  const accepted = () => run(newJob(4, 4), sendAndAccept(newJob(4, 4), 0, 10));

  it('polled: progress and counts follow the digest; it moves only when `completed` or the status change', () => {
    const job = run(accepted(), [{ type: 'polled', digest: digest('b0', 4, null), at: 20 }]);
    expect(job.batches.b0).toMatchObject({ status: 'processing', completed: 1, counts: counts(1), lastPolledAt: 20, lastMovedAt: 20, finishedAt: null });
    const still = run(job, [{ type: 'polled', digest: digest('b0', 4, null), at: 30 }]);
    expect(still.batches.b0).toMatchObject({ lastPolledAt: 30, lastMovedAt: 20 });
    expect(job.finishedAt).toBeNull();
  });

  it('polled (final) finishes the batch and, with every chunk final, the job; tracking still processing is followed up', () => {
    const job = run(accepted(), [{ type: 'polled', digest: digest('b0', 4, [item(2), item(3, 'processing'), item(4), item(5)]), at: 40 }]);
    expect(job.batches.b0).toMatchObject({ status: 'completed', finishedAt: 40 });
    expect(job).toMatchObject({ finishedAt: 40, runState: 'finished' });
    expect(job.trackingFollowUps).toEqual([{ batchId: 'b0', pending: ['s3'], failures: {}, checks: 0, lastCheckAt: null, nextPage: 1 }]);
    expect(accountJob(job)).toMatchObject({ sent: 4, totalRequests: 4, processed: 4, readAddsUp: true, sentMatchesBatches: true, everyRowOneItem: true });
  });

  it('polled (final) whose outcome the reader saved: finished all the same, its pending tracking from the reader', () => {
    const job = run(accepted(), [{ type: 'polled', digest: digest('b0', 4, null, { status: 'completed', completed: 4, outcomeSaved: { jobKept: true, trackingPending: ['s9'] } }), at: 50 }]);
    expect(job.batches.b0!.finishedAt).toBe(50);
    expect(job.trackingFollowUps?.map((f) => f.pending)).toEqual([['s9']]);
    expect(refusal(accepted(), { type: 'polled', digest: digest('b0', 4, null, { outcomeSaved: { jobKept: false, trackingPending: [] } }), at: 50 })).toBe('Batch b0’s results were not kept: its job was deleted meanwhile.');
  });

  it('polled is refused for a batch that is not the job’s', () => {
    expect(refusal(accepted(), { type: 'polled', digest: digest('other', 4, null), at: 20 })).toBe('Batch other is not one of this job’s batches.');
  });

  it('followed-up: the check replaces the follow-up, drops it once nothing is pending, and counts tracking failures of rows that made a shipment', () => {
    const job = run(accepted(), [{ type: 'polled', digest: digest('b0', 4, [item(2, 'processing'), item(3, 'processing'), item(4), item(5)]), at: 40 }]);
    const halfway: TrackingFollowUp = { ...job.trackingFollowUps![0]!, pending: ['s3'], checks: 1, lastCheckAt: 60 };
    const outcome: BatchOutcome = { jobId: job.id, batchId: 'b0', chunkId: 0, status: 'completed', failureReason: null, items: [item(2, 'failed'), item(3, 'processing'), item(4), item(5, 'failed', 'failed')] };
    const checked = run(job, [{ type: 'followed-up', followUp: halfway, outcome, at: 60 }]);
    expect(checked.trackingFollowUps).toEqual([halfway]);
    expect(checked.batches.b0!.counts.trackingFailed).toBe(1);
    const done = run(checked, [{ type: 'followed-up', followUp: { ...halfway, pending: [] }, outcome: null, at: 70 }]);
    expect(done.trackingFollowUps).toEqual([]);
    expect(done.batches.b0!.counts.trackingFailed).toBe(1);
    expect(refusal(done, { type: 'followed-up', followUp: halfway, outcome: null, at: 80 })).toBe('Batch b0 has no tracking to follow up.');
  });
});

describe('finished', () => {
  it('comes once every chunk is final and every batch finished, as done; a cancelled job stays cancelled', () => {
    const base = newJob(8, 4);
    const sentOne = run(base, [...sendAndAccept(base, 0, 10), { type: 'claim', chunkId: 1, at: 11 }, { type: 'rejected', chunkId: 1, error: 'No.', httpStatus: 400, at: 12 }]);
    expect(sentOne.finishedAt).toBeNull(); // batch b0 still processing
    const done = run(sentOne, [{ type: 'polled', digest: digest('b0', 4, [item(2), item(3), item(4), item(5)]), at: 20 }]);
    expect(done).toMatchObject({ runState: 'finished', finishedAt: 20 });
    const cancelled = run(base, [...sendAndAccept(base, 0, 10), { type: 'cancel', at: 11 }, { type: 'polled', digest: digest('b0', 4, [item(2), item(3), item(4), item(5)]), at: 30 }]);
    expect(cancelled).toMatchObject({ runState: 'cancelled', finishedAt: 30 });
    expect(refusal(done, { type: 'cancel', at: 40 })).toBe('The job is already finished.');
  });

  it('is not set again by a later event', () => {
    const base = newJob(4, 4);
    const done = run(base, [...sendAndAccept(base, 0, 10), { type: 'polled', digest: digest('b0', 4, [item(2), item(3), item(4), item(5)]), at: 20 }, { type: 'notify', on: true, at: 30 }]);
    expect(done).toMatchObject({ finishedAt: 20, updatedAt: 30 });
  });
});

describe('every transition', () => {
  it('leaves the job it was given as it was (pure)', () => {
    const base = newJob();
    const frozen = structuredClone(base);
    run(base, [...sendAndAccept(base, 0), { type: 'claim', chunkId: 1, at: 3 }, { type: 'split', chunkId: 1, pieces: cut(4, 2, 6), at: 4 }, { type: 'cancel', at: 5 }]);
    expect(base).toEqual(frozen);
  });

  it('keeps the accounting invariant through any order of events (200 jobs, seeded random walks)', () => {
    let seed = 19;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    let applied = 0;
    let finished = 0;
    for (let walk = 0; walk < 200; walk++) {
      let job = newJob(1 + Math.floor(random() * 40), 1 + Math.floor(random() * 8), Math.floor(random() * 4));
      for (let i = 0; i < 400 && job.finishedAt === null; i++) {
        const at = 1_000 + i;
        const chunk = pick(job.chunks);
        const running = Object.values(job.batches).filter((b) => b.finishedAt === null);
        const batch = running.length > 0 ? pick(running) : null;
        const chunkOf = batch ? job.chunks.find((c) => c.state.status === 'accepted' && c.state.batchId === batch.batchId) : undefined;
        const candidates: JobEvent[] = [
          { type: 'claim', chunkId: chunk.id, at },
          { type: 'accepted', chunkId: chunk.id, batch: headline(`b${chunk.id}`, chunk.rowCount), at },
          { type: 'rejected', chunkId: chunk.id, error: 'No.', httpStatus: 422, at },
          { type: 'lost', chunkId: chunk.id, error: 'No answer.', at },
          { type: 'returned', chunkId: chunk.id, pause: random() < 0.2 ? 'Key refused.' : null, at },
          { type: 'interrupted', at },
          { type: 'split', chunkId: chunk.id, pieces: cut(chunk.rowCount, Math.max(1, Math.ceil(chunk.rowCount / 2)), chunk.firstRow), at },
          { type: 'resend', chunkId: chunk.id, at },
          { type: 'skip', chunkId: chunk.id, at },
          { type: 'resume', at },
          ...(random() < 0.05 ? [{ type: 'cancel', at } as const] : []),
          ...(batch && chunkOf
            ? [{ type: 'polled', at, digest: digest(batch.batchId, batch.total, random() < 0.5 ? null : Array.from({ length: batch.total }, (_, k) => item(chunkOf.firstRow + k))) } as const]
            : []),
        ];
        const next = transition(job, pick(candidates));
        if (next.job === null) {
          expect(next.refused).toMatch(/\.$/);
          continue;
        }
        applied++;
        job = next.job;
        const account = accountJob(job);
        expect(account.readAddsUp, `walk ${walk}, step ${i}`).toBe(true);
        expect(account.sentMatchesBatches, `walk ${walk}, step ${i}`).toBe(true);
        expect(account.everyRowOneItem, `walk ${walk}, step ${i}`).toBe(true);
        expect(job.chunks.map((c) => c.firstPosition)).toEqual(job.chunks.map((_, k) => job.chunks.slice(0, k).reduce((sum, c) => sum + c.rowCount, 0)));
      }
      if (job.finishedAt !== null) {
        finished++;
        // A finished job has no rows left unsettled: every row was sent or skipped with a reason.
        const account = accountJob(job);
        expect(account.toSend + account.unknown).toBe(0);
        expect(account.read).toBe(account.sent + account.skipped);
      }
    }
    // The walks went somewhere: over a thousand events applied, most jobs finished.
    expect(applied).toBeGreaterThan(1_000);
    expect(finished).toBeGreaterThan(150);
  });
});
