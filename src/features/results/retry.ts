// Fix & retry: the rows to hand back to the import wizard, and the links between a job and its
// retries (derived from the jobs list; the original job is never written).
import Papa from 'papaparse';
import type { ImportJob, JobSource } from '../../jobs/import-job';
import { describeProblems, errorCell, jobFileStem, type DownloadKind } from './failed-rows';
import type { JobResults } from './result-rows';

/**
 * What the import wizard needs to start from rows instead of a dropped file: the rows with
 * their columns as sent, as CSV text (data for the worker, not escaped: it is never opened by a
 * spreadsheet program), and the service's message for each row, in the same order.
 */
export interface RetryHandoff {
  /** The job the rows come from; the new job's source is `{ kind: 'retry', jobId, label }`. */
  jobId: string;
  label: string;
  fileName: string;
  csv: string;
  /** `messages[i]` is the service's word on data row i of the CSV. */
  messages: string[];
  /** The rows' numbers in the original file, in the same order. */
  rowNumbers: number[];
}

/** The label a retry job carries: "retry of <file>". */
export function retryLabel(source: JobSource): string {
  const name = source.kind === 'file' ? source.fileName : source.kind === 'retry' ? source.label : 'quick add';
  return `retry of ${name}`;
}

export function buildRetryHandoff(job: Pick<ImportJob, 'id' | 'source'>, results: JobResults, kind: Extract<DownloadKind, 'failed' | 'tracking-failed'>): RetryHandoff {
  const rows: string[][] = [];
  const messages: string[] = [];
  const rowNumbers: number[] = [];
  for (const position of results.index[kind]) {
    const row = results.rows[position]!;
    rows.push(row.values);
    // A failed row: every error and warning of the service; a tracking failure: that it failed.
    messages.push(kind === 'failed' && row.item ? describeProblems(row.item.problems) : errorCell(row));
    rowNumbers.push(row.rowNumber);
  }
  const label = retryLabel(job.source);
  return {
    jobId: job.id,
    label,
    fileName: `${jobFileStem(job.source)}-${kind === 'failed' ? 'failed-rows' : 'tracking-failed'}.csv`,
    csv: Papa.unparse({ fields: results.columns, data: rows }, { newline: '\r\n' }),
    messages,
    rowNumbers,
  };
}

/** The jobs that retried this one's rows, oldest first. */
export function retriesOf(jobs: readonly ImportJob[], jobId: string): ImportJob[] {
  return jobs.filter((job) => job.source.kind === 'retry' && job.source.jobId === jobId).sort((a, b) => a.createdAt - b.createdAt);
}
