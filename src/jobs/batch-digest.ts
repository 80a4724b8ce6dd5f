// A batch's JSON body read, checked and summarised: pure, run by the results thread in a browser
// and by the console's server where it runs jobs. Result items are matched to the rows as sent:
// by `row_number` where the service gives it (a sandbox extension, 1-based within the file sent),
// else by position; an item that matches no row, or a row a second time, is counted as unmatched
// so the accounting shows it.
import type { z } from 'zod';
import { type Batch, batchSchema, isFinalBatchStatus, type ResultItem } from '../contract/batch';
import { quotedServiceRows } from '../spreadsheet/row-numbering';
import type { BatchDigest, BatchHeadline, OutcomeItem } from './import-job';
import { matchItems, outcomeItemOf, RESULT_FLAG, resultFlags } from './result-item';

/** Problems kept for the live list (warnings, errors, tracking failures); the outcome keeps all of them. */
export const LIVE_PROBLEMS_KEPT = 200;

/** A JSON body checked with its schema, or an error whose sentence says what was wrong (`what`: "The batch"). */
export function readJsonBody<T>(body: ArrayBuffer, schema: z.ZodType<T>, what: string): T {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new Error(`${what} answered with something that is not JSON.`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new Error(`${what} answered in an unexpected shape${where}: ${issue?.message ?? 'invalid'}.`);
  }
  return parsed.data;
}

/** The body as a batch, or an error whose sentence says what was wrong with it. */
export function readBatchBody(body: ArrayBuffer, what: string): Batch {
  return readJsonBody(body, batchSchema, what);
}

export function headlineOf(batch: Batch): BatchHeadline {
  return { id: batch.id, status: batch.status, total: batch.total_requests, completed: batch.completed_requests, failureReason: batch.failure_reason ?? null };
}

const isFinalRow = (item: ResultItem) => item.creation_status !== 'processing' && item.tracking_status !== 'processing';

/** The batch counted and its problems listed; once it is final, every item in row order. */
export function digestBatch(batch: Batch, rowNumbers: readonly number[]): BatchDigest {
  const { slots, unmatched } = matchItems(batch.results, rowNumbers.length);
  const counts = { created: 0, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0 };
  const problems: BatchDigest['problems'] = [];
  let problemCount = 0;
  const final = isFinalBatchStatus(batch.status);
  const items: (OutcomeItem | null)[] | null = final ? new Array<OutcomeItem | null>(slots.length).fill(null) : null;
  slots.forEach((resultItem, position) => {
    if (!resultItem) return;
    const rowNumber = rowNumbers[position] ?? position + 1;
    const item = outcomeItemOf(resultItem, rowNumber);
    const flags = resultFlags(item);
    if (isFinalRow(resultItem) || final) {
      if (flags & RESULT_FLAG.created) counts.created++;
      else if (flags & RESULT_FLAG.updated) counts.updated++;
      else if (item.creationStatus === 'failed') counts.failed++;
      if (flags & RESULT_FLAG['tracking-failed']) counts.trackingFailed++;
      if (flags & RESULT_FLAG.warnings) counts.withWarnings++;
    }
    for (const problem of item.problems) {
      problemCount++;
      if (problems.length >= LIVE_PROBLEMS_KEPT) continue;
      const serviceRows = quotedServiceRows(problem.message, rowNumbers);
      problems.push({ rowNumber, level: problem.level, column: problem.column, message: problem.message, ...(serviceRows && { serviceRows }) });
    }
    // Its reason is the shipment's, read later by the tracking follow-up (jobs/tracking-follow-up.ts).
    if (flags & RESULT_FLAG['tracking-failed']) {
      problemCount++;
      if (problems.length < LIVE_PROBLEMS_KEPT) problems.push({ rowNumber, level: 'tracking-failed', shipmentId: item.shipmentId, reason: null });
    }
    if (items) items[position] = item;
  });
  return {
    ...headlineOf(batch),
    counts,
    problems,
    problemCount,
    unmatchedItems: unmatched + (final ? slots.filter((slot) => slot === null).length : 0),
    items,
  };
}
