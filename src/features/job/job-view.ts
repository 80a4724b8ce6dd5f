// What the job page shows, derived from the job record, the budget and the clock. Pure, so the
// figures a person reads are unit-tested without rendering.
import type { BudgetSnapshotView } from './rate-limit-meter';
import { humanize } from '../../components/humanize';
import type { BatchProgress, ImportJob, OutcomeCounts, RowProblemRecord } from '../../jobs/import-job';
import { accountJob, type JobAccounting } from '../../jobs/accounting';
import { isStalled } from '../../jobs/runner/poll-scheduler';
import { STALL_AFTER_MS } from '../../jobs/job-settings';
import { jobState, type JobPhase, type JobState } from '../../jobs/job-state';
import { explainServiceRowNumbers, type RowNumbering } from '../../spreadsheet/row-numbering';

export interface JobView {
  phase: JobPhase;
  /** The state in the words History uses too (jobs/job-state.ts). */
  state: JobState;
  accounting: JobAccounting;
  /** Rows the job sends or will send (read − skipped before sending). */
  rowsToSend: number;
  /** Σ completed_requests ÷ rows to send, 0–1. */
  fraction: number;
  counts: OutcomeCounts;
  chunksAccepted: number;
  chunksTotal: number;
  batches: (BatchProgress & { stalled: boolean })[];
  problems: RowProblemRecord[];
  problemTotal: number;
}

export const PROBLEMS_SHOWN = 200;

/** `connectedTo`: the base URL this tab is connected to, null when it is not. */
export function viewJob(job: ImportJob, now: number, connectedTo: string | null = job.serviceUrl): JobView {
  const accounting = accountJob(job);
  const rowsToSend = job.rowsRead - job.skippedBeforeSend.length;
  const batches = Object.values(job.batches)
    .sort((a, b) => a.acceptedAt - b.acceptedAt)
    .map((batch) => ({ ...batch, stalled: isStalled(batch, now, STALL_AFTER_MS) }));
  const problems: RowProblemRecord[] = [];
  let problemTotal = 0;
  for (const batch of batches) {
    problemTotal += batch.problemCount;
    for (const problem of batch.problems) if (problems.length < PROBLEMS_SHOWN) problems.push(problem);
  }
  const chunksAccepted = job.chunks.filter((c) => c.state.status === 'accepted').length;
  const state = jobState(job, connectedTo);
  return {
    phase: state.phase,
    state,
    accounting,
    rowsToSend,
    fraction: rowsToSend === 0 ? 1 : Math.min(1, accounting.processed / rowsToSend),
    counts: accounting.counts,
    chunksAccepted,
    chunksTotal: job.chunks.length,
    batches,
    problems,
    problemTotal,
  };
}

/** One line of the job page's row problems, in words. */
export interface ProblemLine {
  rowNumber: number;
  level: 'Error' | 'Warning' | 'Tracking failed';
  column: string | null;
  message: string;
}

const LEVEL_WORDS = { error: 'Error', warning: 'Warning', 'tracking-failed': 'Tracking failed' } as const;

/**
 * The live problems as the table reads them: each row_number the service quotes with the file's
 * number beside it; a tracking failure with its reason in words, or, while the tracking follow-up
 * still has its shipment to check, that the reason is being looked up.
 */
export function problemLines(job: Pick<ImportJob, 'trackingFollowUps'>, problems: readonly RowProblemRecord[], numbering: RowNumbering): ProblemLine[] {
  const lookingUp = new Set((job.trackingFollowUps ?? []).flatMap((followUp) => followUp.pending));
  return problems.map((problem) => {
    const level = LEVEL_WORDS[problem.level];
    if (problem.level !== 'tracking-failed') {
      const message = problem.serviceRows ? explainServiceRowNumbers(problem.message, problem.serviceRows, numbering) : problem.message;
      return { rowNumber: problem.rowNumber, level, column: problem.column, message };
    }
    const message =
      problem.reason !== null
        ? `Reason: ${humanize(problem.reason)}.`
        : problem.shipmentId !== null && lookingUp.has(problem.shipmentId)
          ? 'The reason is being looked up.'
          : 'Its reason is not known.';
    return { rowNumber: problem.rowNumber, level, column: null, message };
  });
}

/** How long the uploads still to send must wait for the import bucket (0 when it has room). */
export function uploadWaitMs(uploadsAhead: number, budget: BudgetSnapshotView, now: number): number {
  const paused = Math.max(0, budget.pausedUntil - now);
  const bucket = budget.import;
  if (uploadsAhead === 0) return 0;
  if (!bucket || bucket.resetAt === null || bucket.remaining >= uploadsAhead) return paused;
  const windowMs = Math.max(0, bucket.resetAt - now);
  // Each further window lets `limit` more go; its length is unknown, so the current one stands for it.
  const windows = Math.ceil((uploadsAhead - bucket.remaining) / Math.max(1, bucket.limit));
  return Math.max(paused, windowMs * windows);
}
