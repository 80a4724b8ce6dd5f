import { readCsv } from './read-csv';
import { decodeText } from './decode-text';
import { SpreadsheetReadError } from './read-error';
import { fileExtension, sniffFile } from './sniff-file';
import { DEFAULT_TABLE_LIMITS, checkRowCount } from './table-limits';
import type { TableLimits } from './table-limits';
import { readWorkbook } from './read-workbook';
import type { WorkbookSheetTable } from './read-workbook';
import { pickSheet } from './header-row';

// Callers catch this one class for every "bad file" sentence, whichever reader raised it.
export { SpreadsheetReadError };

export interface ReadTableOptions {
  limits?: Partial<TableLimits>;
  /** Sheet to read; by default the one whose header matches the spec best (see pickSheet). */
  sheet?: string;
  /** Text encoding of a CSV (a WHATWG label); by default detected. */
  encoding?: string;
  /** CSV delimiter; by default detected among , ; tab |. */
  delimiter?: string;
  signal?: AbortSignal;
  /** Called with 0…1 as reading goes; coarse (a few steps), meant for a progress bar. */
  onProgress?: (fraction: number) => void;
}

export interface TableReadResult {
  kind: 'csv' | 'xlsx' | 'xls';
  /** Every sheet with its count of non-empty rows (one entry, named after the file, for CSV). */
  sheets: { name: string; rowCount: number }[];
  /** The sheet read: the one asked for, else the best match for the sheet picker to pre-select. */
  sheet: string;
  /** Non-empty rows, header (and any title rows above it) included; cells as a person sees them. */
  rows: string[][];
  /** 1-based line (CSV) or row (workbook) of each entry of rows, for messages a person can check. */
  rowNumbers: number[];
  /** CSV only: the encoding used to decode the text. */
  encoding?: string;
  /** CSV only: the delimiter used. */
  delimiter?: string;
}

function sheetNameOf(fileName: string): string {
  const base = fileName.replace(/^.*[\\/]/, '');
  const extension = fileExtension(base);
  return (extension ? base.slice(0, -(extension.length + 1)) : base) || 'Sheet1';
}

/**
 * Reads a CSV, XLS or XLSX file into rows of text. The file type comes from its content as well
 * as its name. Throws SpreadsheetReadError with one sentence naming the problem for anything
 * that is not a readable spreadsheet, or that breaks the limits (DEFAULT_TABLE_LIMITS).
 */
export async function readTable(bytes: Uint8Array, fileName: string, options: ReadTableOptions = {}): Promise<TableReadResult> {
  const { signal, onProgress } = options;
  const limits: TableLimits = { ...DEFAULT_TABLE_LIMITS, ...options.limits };
  signal?.throwIfAborted();
  const sniffed = sniffFile(bytes, fileName);
  onProgress?.(0.05);

  if (sniffed.kind === 'text') {
    const { text, encoding } = decodeText(bytes, options.encoding, sniffed.utf16WithoutBom);
    signal?.throwIfAborted();
    onProgress?.(0.2);
    const { rows, rowNumbers, delimiter } = readCsv(text, limits, options.delimiter);
    signal?.throwIfAborted();
    if (rows.length === 0) throw new SpreadsheetReadError('invalid_file', 'The file has no rows, only empty lines.');
    checkRowCount(rows.length, limits);
    onProgress?.(1);
    const sheet = sheetNameOf(fileName);
    return { kind: 'csv', sheets: [{ name: sheet, rowCount: rows.length }], sheet, rows, rowNumbers, encoding, delimiter };
  }

  const chooseSheet = (sheets: WorkbookSheetTable[]) => {
    if (options.sheet === undefined) return pickSheet(sheets);
    if (!sheets.some((sheet) => sheet.name === options.sheet)) {
      throw new SpreadsheetReadError('invalid_file', `The workbook has no sheet named "${options.sheet}".`);
    }
    return options.sheet;
  };
  const table = await readWorkbook(bytes, limits, chooseSheet, () => {
    signal?.throwIfAborted();
    onProgress?.(0.8);
  });
  signal?.throwIfAborted();
  if (table.rows.length === 0) throw new SpreadsheetReadError('invalid_file', `The sheet "${table.sheet}" is empty.`);
  onProgress?.(1);
  return {
    kind: sniffed.kind === 'xlsx' ? 'xlsx' : 'xls',
    sheets: table.sheets.map(({ name, rowCount }) => ({ name, rowCount })),
    sheet: table.sheet,
    rows: table.rows,
    rowNumbers: table.rowNumbers,
  };
}
