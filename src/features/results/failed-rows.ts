// What "Download failed rows" (and rows with warnings, tracking failed) writes: the rows' columns
// exactly as sent, then `error`, and `warning` where chosen. Built here in slices as the export
// worker's source string; the worker escapes and writes the file (workers/export-worker.ts).
import type { JobSource } from '../../jobs/import-job';
import { toExportSource } from '../../spreadsheet/result-export';
import { cellsUnder, type JobResults, type ResultFilter, type ResultRow, rowErrors, rowWarnings, yieldToEventLoop } from './result-rows';
import { describeProblems } from '../../spreadsheet/problem-text';

/** The downloads the results offer. */
export const DOWNLOADS = ['failed', 'warnings', 'tracking-failed'] as const;
export type DownloadKind = (typeof DOWNLOADS)[number] & ResultFilter;

export const DOWNLOAD_LABEL: Record<DownloadKind, string> = {
  failed: 'failed rows',
  warnings: 'rows with warnings',
  'tracking-failed': 'rows whose tracking failed',
};

const FILE_PART: Record<DownloadKind, string> = { failed: 'failed-rows', warnings: 'rows-with-warnings', 'tracking-failed': 'tracking-failed' };

/** Rows per slice of the source string: a few milliseconds of work each. */
const SLICE_ROWS = 1000;

/** The job's name in a file name: the dropped file without its extension, or what it retried. */
export function jobFileStem(source: JobSource): string {
  const name = source.kind === 'file' ? source.fileName.replace(/\.[^.]+$/, '') : source.kind === 'retry' ? source.label : 'quick-add';
  return name.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'import';
}

export function downloadFileName(source: JobSource, kind: DownloadKind, format: 'csv' | 'xlsx'): string {
  return `${jobFileStem(source)}-${FILE_PART[kind]}.${format}`;
}

/** The `error` cell of a row: its errors, or that its tracking failed (with the reason when known). */
export function errorCell(row: ResultRow, trackingFailure?: string | null): string {
  const errors = describeProblems(rowErrors(row));
  if (errors || row.item?.trackingStatus !== 'failed') return errors;
  return trackingFailure ? `Tracking failed: ${trackingFailure}` : 'Tracking failed.';
}

export interface DownloadOptions {
  kind: DownloadKind;
  /** Add a `warning` column (always there for the rows-with-warnings download). */
  withWarnings: boolean;
  /** `last_process_failure_reason` by shipment id, where the tracking follow-up has it. */
  trackingFailures?: ReadonlyMap<string, string>;
}

/** The export worker's source for one download: header, then the rows of that filter. */
export async function buildDownloadSource(results: JobResults, options: DownloadOptions, pause: () => Promise<void> = yieldToEventLoop): Promise<string> {
  const withWarnings = options.withWarnings || options.kind === 'warnings';
  const columns = [...results.columns, 'error', ...(withWarnings ? ['warning'] : [])];
  const positions = results.index[options.kind];
  const parts = [toExportSource({ columns, rows: [] })];
  for (let start = 0; start < positions.length; start += SLICE_ROWS) {
    if (start > 0) await pause();
    const rows: string[][] = [];
    for (const position of positions.subarray(start, start + SLICE_ROWS)) {
      const row = results.rows[position]!;
      const reason = (row.item?.shipmentId ? options.trackingFailures?.get(row.item.shipmentId) : undefined) ?? row.item?.trackingFailureReason;
      rows.push([...cellsUnder(results, row), errorCell(row, reason), ...(withWarnings ? [describeProblems(rowWarnings(row))] : [])]);
    }
    parts.push(toExportSource({ columns, rows }, false));
  }
  return parts.join('\r\n');
}
