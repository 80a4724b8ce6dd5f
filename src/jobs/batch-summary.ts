// A batch as the job record keeps it: its progress from the import's answer, then each poll's
// digest (read and summarised off the main thread, see BatchReader) merged in; a final digest
// also gives the batch's compact outcome. Pure.
import type { BatchDigest, BatchHeadline, BatchOutcome, BatchProgress } from './import-job';

export function initialProgress(batch: BatchHeadline, chunkId: number, at: number): BatchProgress {
  return {
    batchId: batch.id,
    chunkId,
    status: batch.status,
    total: batch.total,
    completed: batch.completed,
    counts: { created: 0, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0 },
    problems: [],
    problemCount: 0,
    acceptedAt: at,
    lastPolledAt: null,
    lastMovedAt: at,
    finishedAt: null,
    failureReason: batch.failureReason,
    unmatchedItems: 0,
  };
}

/** The batch after a poll, and, once it is final, its outcome. */
export function applyDigest(previous: BatchProgress, digest: BatchDigest, jobId: string, at: number): { progress: BatchProgress; outcome: BatchOutcome | null } {
  const moved = digest.completed !== previous.completed || digest.status !== previous.status;
  const final = digest.items !== null;
  const progress: BatchProgress = {
    ...previous,
    status: digest.status,
    total: digest.total,
    completed: digest.completed,
    counts: digest.counts,
    problems: digest.problems,
    problemCount: digest.problemCount,
    lastPolledAt: at,
    lastMovedAt: moved ? at : previous.lastMovedAt,
    finishedAt: final ? at : null,
    failureReason: digest.failureReason,
    unmatchedItems: digest.unmatchedItems,
  };
  const outcome: BatchOutcome | null = digest.items
    ? { jobId, batchId: digest.id, chunkId: previous.chunkId, status: digest.status, failureReason: digest.failureReason, items: digest.items }
    : null;
  return { progress, outcome };
}
