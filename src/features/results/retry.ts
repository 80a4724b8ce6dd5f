// Fix & retry: the rows to hand back to the import wizard, and the links between a job and its
// retries (derived from the jobs list; the original job is never written).
import type { ImportJob, JobSource } from '../../jobs/import-job';
import type { RetryRowsAnswer } from '../../jobs/thread/results-protocol';
import type { RetryRows } from '../../workers/import-protocol';
import { jobFileStem } from './failed-rows';

/**
 * What the import wizard needs to start from rows instead of a dropped file: the rows with
 * their columns as sent, as CSV text (data for the worker, not escaped: it is never opened by a
 * spreadsheet program), and for each row its number in the original file and what the service
 * said about it (`rows`, in the same order).
 */
export interface RetryHandoff {
  /** The job the rows come from; the new job's source is `{ kind: 'retry', jobId, label, batchId }`. */
  jobId: string;
  /** The batch the rows come from, when they were opened by its id (/batches/<id>). */
  batchId?: string;
  label: string;
  fileName: string;
  csv: string;
  rows: RetryRows;
}

/** The label a retry job carries: "retry of <file>". */
export function retryLabel(source: JobSource): string {
  const name = source.kind === 'file' ? source.fileName : source.kind === 'retry' ? source.label : 'quick add';
  return `retry of ${name}`;
}

/** The handoff for the rows the results thread gave (results-retry): the new job's label and file name are the job's. */
export function buildRetryHandoff(
  job: Pick<ImportJob, 'id' | 'source'>,
  retry: RetryRowsAnswer,
  kind: 'failed' | 'tracking-failed',
  batchId?: string,
): RetryHandoff {
  return {
    jobId: job.id,
    ...(batchId === undefined ? {} : { batchId }),
    label: retryLabel(job.source),
    fileName: `${jobFileStem(job.source)}-${kind === 'failed' ? 'failed-rows' : 'tracking-failed'}.csv`,
    csv: retry.csv,
    rows: { numbering: retry.numbering, rowNumbers: retry.rowNumbers, notes: retry.notes },
  };
}

/** The jobs that retried this one's rows, oldest first. */
export function retriesOf(jobs: readonly ImportJob[], jobId: string): ImportJob[] {
  return jobs.filter((job) => job.source.kind === 'retry' && job.source.jobId === jobId).sort((a, b) => a.createdAt - b.createdAt);
}
