// Fix & retry: the rows to hand back to the import wizard, and the links between a job and its
// retries (derived from the jobs list; the original job is never written).
import Papa from 'papaparse';
import type { ImportJob, JobSource } from '../../jobs/import-job';
import type { RetryRows, ServiceNote } from '../../workers/import-protocol';
import { errorCell, jobFileStem, type DownloadKind } from './failed-rows';
import { cellsUnder, rowErrors, type JobResults, type ResultRow } from './result-rows';

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

export function buildRetryHandoff(
  job: Pick<ImportJob, 'id' | 'source'>,
  results: JobResults,
  kind: Extract<DownloadKind, 'failed' | 'tracking-failed'>,
  batchId?: string,
): RetryHandoff {
  const rows: string[][] = [];
  const notes: ServiceNote[][] = [];
  const rowNumbers: number[] = [];
  for (const position of results.index[kind]) {
    const row = results.rows[position]!;
    rows.push(cellsUnder(results, row));
    notes.push(serviceNotes(row, kind));
    rowNumbers.push(row.rowNumber);
  }
  const label = retryLabel(job.source);
  return {
    jobId: job.id,
    ...(batchId === undefined ? {} : { batchId }),
    label,
    fileName: `${jobFileStem(job.source)}-${kind === 'failed' ? 'failed-rows' : 'tracking-failed'}.csv`,
    csv: Papa.unparse({ fields: results.columns, data: rows }, { newline: '\r\n' }),
    rows: { numbering: results.numbering, rowNumbers, notes },
  };
}

/** A failed row: every error and warning of the service; a tracking failure: that it failed, and why where known. */
function serviceNotes(row: ResultRow, kind: 'failed' | 'tracking-failed'): ServiceNote[] {
  if (kind === 'tracking-failed') return [{ level: 'error', column: null, message: errorCell(row) }];
  if (!row.item) return rowErrors(row).map((problem) => ({ level: 'error', ...problem }));
  return row.item.problems.map(({ level, column, message }) => ({ level, column, message }));
}

/** The jobs that retried this one's rows, oldest first. */
export function retriesOf(jobs: readonly ImportJob[], jobId: string): ImportJob[] {
  return jobs.filter((job) => job.source.kind === 'retry' && job.source.jobId === jobId).sort((a, b) => a.createdAt - b.createdAt);
}
