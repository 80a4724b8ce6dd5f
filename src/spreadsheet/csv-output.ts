import Papa from 'papaparse';
import type { ReviewTable } from './review-table';
import { readRow, ROW_ERROR, ROW_EXCLUDED, rowNumberOf } from './review-table';

/**
 * One chunk of rows to send, made once where the rows live (the import worker); an import job
 * keeps its CSV as the chunk's payload and sends it as it is.
 */
export interface CsvChunk {
  /** Normalized CSV: the exact spec headers, then the cf_ columns in use; CRLF line ends. */
  csv: string;
  /** The file row number of each data row, in order: result item i is rowNumbers[i]. */
  rowNumbers: number[];
  /** Rows with an empty reference (a resend of a lost request could create them twice). */
  withoutReference: number;
  /** What the Ready step foresaw each row would do, one letter per row (row-foresight.ts FORESIGHT_LETTERS), when it did. */
  foreseen?: string;
}

export interface SkippedRow {
  row: number;
  /** The row's line or row number in the file. */
  rowNumber: number;
  /** Why it is not submitted: "excluded by you", or each error's message. */
  reasons: string[];
}

export interface CsvSubmission {
  headers: string[];
  chunks: CsvChunk[];
  skipped: SkippedRow[];
  /** Rows in the chunks; submittedRows + skipped.length = rows of the table, always. */
  submittedRows: number;
}

/**
 * The rows to submit, as normalized CSV in chunks, and the rows left out with their reasons.
 * Every row of the table is in exactly one chunk or in skipped. Cells are not formula-escaped:
 * this CSV is data for the service, not a file for a spreadsheet program (downloads are
 * escaped in result-export.ts).
 */
export function toCsvChunks(table: ReviewTable, chunkRows: number): CsvSubmission {
  if (!Number.isInteger(chunkRows) || chunkRows < 1) throw new RangeError('chunkRows must be a positive whole number.');
  const headers = [...table.columns];
  const chunks: CsvChunk[] = [];
  const skipped: SkippedRow[] = [];
  let rows: number[] = [];
  let data: string[][] = [];

  const reference = headers.indexOf('reference');
  const flush = () => {
    if (rows.length === 0) return;
    chunks.push({
      csv: Papa.unparse({ fields: headers, data }, { newline: '\r\n' }),
      rowNumbers: rows.map((row) => rowNumberOf(table, row)),
      withoutReference: data.reduce((sum, cells) => sum + ((cells[reference] ?? '').trim() === '' ? 1 : 0), 0),
    });
    rows = [];
    data = [];
  };

  for (let row = 0; row < table.counts.rows; row++) {
    const flags = table.flags[row] ?? 0;
    if (flags & (ROW_EXCLUDED | ROW_ERROR)) {
      const reasons =
        flags & ROW_EXCLUDED
          ? ['excluded by you']
          : readRow(table, row).issues.filter((issue) => issue.level === 'error').map((issue) => issue.message);
      skipped.push({ row, rowNumber: rowNumberOf(table, row), reasons });
      continue;
    }
    rows.push(row);
    data.push(readRow(table, row).values);
    if (rows.length === chunkRows) flush();
  }
  flush();
  return { headers, chunks, skipped, submittedRows: table.counts.rows - skipped.length };
}
