// The downloads the results offer (failed rows, rows with warnings, rows whose tracking failed)
// and their file names. The results thread writes each file: the rows' columns exactly as sent,
// then `error`, and `warning` where chosen, every cell formula-escaped (jobs/thread/results-session.ts).
import type { JobSource } from '../../jobs/import-job';
import { RESULT_DOWNLOADS, type ResultDownloadKind } from '../../jobs/thread/results-protocol';

export const DOWNLOADS = RESULT_DOWNLOADS;
export type DownloadKind = ResultDownloadKind;

export const DOWNLOAD_LABEL: Record<DownloadKind, string> = {
  failed: 'failed rows',
  warnings: 'rows with warnings',
  'tracking-failed': 'rows whose tracking failed',
};

const FILE_PART: Record<DownloadKind, string> = { failed: 'failed-rows', warnings: 'rows-with-warnings', 'tracking-failed': 'tracking-failed' };

/** The job's name in a file name: the dropped file without its extension, or what it retried. */
export function jobFileStem(source: JobSource): string {
  const name = source.kind === 'file' ? source.fileName.replace(/\.[^.]+$/, '') : source.kind === 'retry' ? source.label : 'quick-add';
  return name.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'import';
}

export function downloadFileName(source: JobSource, kind: DownloadKind, format: 'csv' | 'xlsx'): string {
  return `${jobFileStem(source)}-${FILE_PART[kind]}.${format}`;
}
