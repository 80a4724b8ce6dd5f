// Row numbers in the results, as the importer names them: "Line N" of a text file, "Row N" of a
// sheet. The service numbers rows its own way (the sandbox's `row_number`: the rows of the file
// it got, counted from 1 without the header, so within one batch); where its messages quote that
// number, the file's own number is added beside it.
import type { ImportJob } from '../../jobs/import-job';
import type { RowNumbering } from '../../workers/import-protocol';

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

/** "Row 4 (row_number, …)" as the sandbox writes its own numbers into a message. */
const SERVICE_ROW = /\bRow (\d+) \(row_number([^)]*)\)/g;

/**
 * The message with the file's number beside each row_number it quotes: "Row 4 (row_number, …;
 * Line 5 of the file)". `rowNumbers` are the file numbers of the batch's rows in the order sent.
 */
export function explainServiceRowNumbers(message: string, rowNumbers: readonly number[], numbering: RowNumbering): string {
  return message.replace(SERVICE_ROW, (whole, serviceRow: string, rest: string) => {
    const fileRow = rowNumbers[Number(serviceRow) - 1];
    return fileRow === undefined ? whole : `Row ${serviceRow} (row_number${rest}; ${numbering} ${fileRow} of the file)`;
  });
}
