// The accounting invariant of a job (DESIGN §5), computed from its record alone:
//   rows read = rows sent + rows skipped (with reasons) + rows not settled yet
//   rows sent = Σ total_requests of the job's batches
//   every sent row is in exactly one result item (no unmatched item or row in finished batches)
// "Not settled" are rows still to send, being sent, or in an unknown chunk awaiting Resend/Skip.
// Every page that counts a job's rows (the job page, History, the team history) counts them here.
import type { ImportJob, OutcomeCounts } from './import-job';

export interface SkipReason {
  reason: string;
  rows: number;
}

export interface JobAccounting {
  read: number;
  sent: number;
  skipped: number;
  skipReasons: SkipReason[];
  /** Rows pending or being sent. */
  toSend: number;
  /** Rows in chunks whose answer was lost, and how many of them have no reference. */
  unknown: number;
  unknownWithoutReference: number;
  totalRequests: number;
  /** Items or rows that could not be paired one to one in finished batches. */
  unmatched: number;
  /** Rows processed by the service so far (Σ completed_requests). */
  processed: number;
  /** What the processed rows did, summed over the job's batches. */
  counts: OutcomeCounts;
  readAddsUp: boolean;
  sentMatchesBatches: boolean;
  everyRowOneItem: boolean;
}

export function accountJob(job: ImportJob): JobAccounting {
  const reasons = new Map<string, number>();
  const skip = (reason: string, rows: number) => reasons.set(reason, (reasons.get(reason) ?? 0) + rows);
  for (const row of job.skippedBeforeSend) skip(row.reason, 1);
  let sent = 0;
  let toSend = 0;
  let unknown = 0;
  let unknownWithoutReference = 0;
  for (const chunk of job.chunks) {
    switch (chunk.state.status) {
      case 'accepted':
        sent += chunk.rowCount;
        break;
      case 'pending':
      case 'sending':
        toSend += chunk.rowCount;
        break;
      case 'unknown':
        unknown += chunk.rowCount;
        unknownWithoutReference += chunk.withoutReference;
        break;
      case 'rejected':
        skip(`refused by the service: ${chunk.state.error}`, chunk.rowCount);
        break;
      case 'skipped':
        skip(chunk.state.reason, chunk.rowCount);
        break;
    }
  }
  const batches = Object.values(job.batches);
  const totalRequests = batches.reduce((sum, b) => sum + b.total, 0);
  const unmatched = batches.reduce((sum, b) => sum + b.unmatchedItems, 0);
  const skipped = [...reasons.values()].reduce((a, b) => a + b, 0);
  const counts: OutcomeCounts = { created: 0, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0 };
  for (const batch of batches) for (const key of Object.keys(counts) as (keyof OutcomeCounts)[]) counts[key] += batch.counts[key];
  return {
    read: job.rowsRead,
    sent,
    skipped,
    skipReasons: [...reasons].map(([reason, rows]) => ({ reason, rows })).sort((a, b) => b.rows - a.rows),
    toSend,
    unknown,
    unknownWithoutReference,
    totalRequests,
    unmatched,
    processed: batches.reduce((sum, b) => sum + b.completed, 0),
    counts,
    readAddsUp: job.rowsRead === sent + skipped + toSend + unknown,
    sentMatchesBatches: sent === totalRequests,
    everyRowOneItem: unmatched === 0,
  };
}
