// What a job's row numbers count, in the importer's words: "Line N" of a text file, "Row N" of a
// sheet. The job page's problems, the results and the downloads all name numbers with it.
import type { RowNumbering } from '../spreadsheet/row-numbering';
import type { ImportJob } from './import-job';

const WORKBOOK = /\.(xlsx|xlsm|xls)$/i;

/**
 * What a job's row numbers count. A retry's rows keep the numbers of the file they came from, so
 * it is that file's numbering; a quick-add list's rows are rows. A retry whose original job is
 * gone says "Row".
 */
export function jobNumbering(job: Pick<ImportJob, 'source'>, jobs: readonly Pick<ImportJob, 'id' | 'source'>[]): RowNumbering {
  let source = job.source;
  const seen = new Set<string>();
  while (source.kind === 'retry') {
    const originalId = source.jobId;
    const original = seen.has(originalId) ? undefined : jobs.find((candidate) => candidate.id === originalId);
    if (!original) return 'Row';
    seen.add(originalId);
    source = original.source;
  }
  if (source.kind === 'file') return source.sheet !== undefined || WORKBOOK.test(source.fileName) ? 'Row' : 'Line';
  return 'Row';
}
