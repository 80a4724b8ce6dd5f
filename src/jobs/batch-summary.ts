// A polled batch, summarised for the job record, and a finished batch's compact outcome. Pure.
// Result items are matched to the rows as sent: by `row_number` where the service gives it (a
// sandbox extension, 1-based within the file sent), else by position; an item that matches no
// row, or a row a second time, is counted as unmatched so the accounting shows it.
import type { Batch, ResultItem } from '../contract/batch';
import { isFinalBatchStatus } from '../contract/batch';
import type { BatchOutcome, BatchProgress, OutcomeCounts, OutcomeItem, RowProblemRecord } from './import-job';

/** Problems kept in the job record for the live list; the outcome keeps all of them. */
export const LIVE_PROBLEMS_KEPT = 200;

const zeroCounts = (): OutcomeCounts => ({ created: 0, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0 });

export function initialProgress(batch: Batch, chunkId: number, at: number): BatchProgress {
  return {
    batchId: batch.id,
    chunkId,
    status: batch.status,
    total: batch.total_requests,
    completed: batch.completed_requests,
    counts: zeroCounts(),
    problems: [],
    problemCount: 0,
    acceptedAt: at,
    lastPolledAt: null,
    lastMovedAt: at,
    finishedAt: null,
    failureReason: batch.failure_reason ?? null,
    unmatchedItems: 0,
  };
}

/** Result items in the order of the chunk's rows: slot i is row i of the chunk, or null. */
export function matchItems(items: readonly ResultItem[], rowCount: number): { slots: (ResultItem | null)[]; unmatched: number } {
  const slots: (ResultItem | null)[] = new Array<ResultItem | null>(rowCount).fill(null);
  let unmatched = 0;
  items.forEach((item, index) => {
    const position = item.row_number !== undefined ? item.row_number - 1 : index;
    if (position < 0 || position >= rowCount || slots[position] !== null) unmatched++;
    else slots[position] = item;
  });
  return { slots, unmatched };
}

const isFinalRow = (item: ResultItem) => item.creation_status !== 'processing' && item.tracking_status !== 'processing';

/**
 * The batch as the job record keeps it after a poll, and, once it is final, its outcome.
 * `rowNumbers` are the file row numbers of the chunk's rows, in the order sent.
 */
export function summariseBatch(
  batch: Batch,
  rowNumbers: readonly number[],
  previous: BatchProgress,
  jobId: string,
  at: number,
): { progress: BatchProgress; outcome: BatchOutcome | null } {
  const { slots, unmatched } = matchItems(batch.results, rowNumbers.length);
  const counts = zeroCounts();
  const problems: RowProblemRecord[] = [];
  let problemCount = 0;
  const final = isFinalBatchStatus(batch.status);
  const items: (OutcomeItem | null)[] = final ? new Array<OutcomeItem | null>(slots.length).fill(null) : [];
  slots.forEach((item, position) => {
    if (!item) return;
    const rowNumber = rowNumbers[position] ?? position + 1;
    if (isFinalRow(item) || final) {
      if (item.creation_status === 'created') counts.created++;
      else if (item.creation_status === 'updated') counts.updated++;
      else if (item.creation_status === 'failed') counts.failed++;
      if (item.tracking_status === 'failed') counts.trackingFailed++;
      if (item.warnings.length > 0) counts.withWarnings++;
    }
    for (const [level, list] of [['error', item.errors], ['warning', item.warnings]] as const) {
      for (const problem of list) {
        problemCount++;
        if (problems.length < LIVE_PROBLEMS_KEPT) problems.push({ rowNumber, level, column: problem.target ?? null, message: problem.message });
      }
    }
    if (final) {
      items[position] = {
        rowNumber,
        creationStatus: item.creation_status,
        trackingStatus: item.tracking_status,
        shipmentId: item.shipment_id ?? null,
        reference: item.reference ?? null,
        problems: [
          ...item.errors.map((p) => ({ level: 'error' as const, code: p.code, column: p.target ?? null, message: p.message })),
          ...item.warnings.map((p) => ({ level: 'warning' as const, code: p.code, column: p.target ?? null, message: p.message })),
        ],
      };
    }
  });
  const moved = batch.completed_requests !== previous.completed || batch.status !== previous.status;
  const progress: BatchProgress = {
    ...previous,
    status: batch.status,
    total: batch.total_requests,
    completed: batch.completed_requests,
    counts,
    problems,
    problemCount,
    lastPolledAt: at,
    lastMovedAt: moved ? at : previous.lastMovedAt,
    finishedAt: final ? at : null,
    failureReason: batch.failure_reason ?? null,
    unmatchedItems: unmatched + (final ? slots.filter((slot) => slot === null).length : 0),
  };
  const outcome: BatchOutcome | null = final
    ? { jobId, batchId: batch.id, chunkId: previous.chunkId, status: batch.status, failureReason: batch.failure_reason ?? null, items }
    : null;
  return { progress, outcome };
}
