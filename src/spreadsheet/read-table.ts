import { readCsv } from './read-csv';
import { decodeText } from './decode-text';
import { SpreadsheetReadError } from './read-error';
import { fileExtension, sniffFile } from './sniff-file';
import { DEFAULT_TABLE_LIMITS, checkRowCount, forgetShortenedCells } from './table-limits';
import { formatCount } from './read-error';
import type { TableLimits } from './table-limits';
import type { RowNumbers } from './row-numbers';
import { readWorkbook } from './read-workbook';
import type { WorkbookSheetTable } from './read-workbook';
import { pickSheet } from './header-row';
import { rememberedSheet } from './remembered-mapping';
import { XlsxDeclinedError, XlsxReadError, openXlsx } from './xlsx/read-xlsx';
import type { WorkbookTable } from './read-workbook';
import { type ByteSource, type FileRows, readCsvFile, type TableRows } from './file-rows';

// Callers catch this one class for every "bad file" sentence, whichever reader raised it.
export { SpreadsheetReadError };

export interface ReadTableOptions {
  limits?: Partial<TableLimits>;
  /** Sheet to read; by default one holding a remembered set of headers, else the one whose header matches the spec best (see pickSheet). */
  sheet?: string;
  /** Fingerprints of the remembered sets of headers (remembered-mapping.ts), for choosing the sheet. */
  rememberedHeaders?: readonly string[];
  /** Text encoding of a CSV (a WHATWG label); by default detected. */
  encoding?: string;
  /** CSV delimiter; by default detected among , ; tab |. */
  delimiter?: string;
  signal?: AbortSignal;
  /** Called with 0…1 as reading goes (in steps for CSV, about every percent for XLSX), for a progress bar. */
  onProgress?: (fraction: number) => void;
}

/** What a reader gives: rows as arrays (readTable), or a large CSV's rows as an index of its file (readIndexedCsv). */
export interface TableReadResult<Rows extends TableRows = string[][]> {
  kind: 'csv' | 'xlsx' | 'xls';
  /** Every sheet with its count of non-empty rows (one entry, named after the file, for CSV). */
  sheets: { name: string; rowCount: number }[];
  /** The sheet read: the one asked for, else the best match for the sheet picker to pre-select. */
  sheet: string;
  /** Non-empty rows, header (and any title rows above it) included; cells as a person sees them. */
  rows: Rows;
  /** 1-based line (CSV) or row (workbook) of each entry of rows, for messages a person can check. */
  rowNumbers: RowNumbers;
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

function asReadError(error: unknown, sheet: string, limits: TableLimits): unknown {
  if (!(error instanceof XlsxReadError)) return error;
  // The reader counts the header among rows; people count data rows, as the limit does.
  if (error.code === 'too_large' && / rows\.$/.test(error.message)) {
    return new SpreadsheetReadError('too_large', `The sheet "${sheet}" has more rows than the limit of ${formatCount(limits.maxRows)}.`);
  }
  return new SpreadsheetReadError(error.code, error.message);
}

/**
 * An .xlsx workbook through the console's own streaming reader (src/spreadsheet/xlsx), which is
 * many times faster and leaner than SheetJS. Every sheet is read, for its row count and for the
 * pre-selection, from one opened workbook (its shared strings are read once for all); null when
 * the reader declines the workbook (encrypted, strict OOXML), which then goes to SheetJS.
 */
async function readXlsxTable(
  bytes: Uint8Array,
  limits: TableLimits,
  chooseSheet: (sheets: WorkbookSheetTable[]) => string,
  options: ReadTableOptions,
): Promise<WorkbookTable | null> {
  let reading = '';
  try {
    const workbook = openXlsx(bytes, limits);
    const names = workbook.sheets.map((sheet) => sheet.name);
    const tables = new Map<string, { rows: string[][]; rowNumbers: number[] }>();
    const sheets: WorkbookSheetTable[] = [];
    for (const [at, name] of names.entries()) {
      reading = name;
      const read = await workbook.read({
        sheet: name,
        signal: options.signal,
        onProgress: (fraction) => options.onProgress?.(0.05 + (0.9 * (at + fraction)) / names.length),
        limits: { ...limits, maxRows: limits.maxRows + 1 },
      });
      tables.set(name, read);
      sheets.push({ name, rowCount: read.rows.length, head: read.rows.slice(0, 30) });
    }
    const sheet = chooseSheet(sheets);
    const table = tables.get(sheet) ?? { rows: [], rowNumbers: [] };
    return { sheets, sheet, rows: table.rows, rowNumbers: table.rowNumbers };
  } catch (error) {
    if (error instanceof XlsxDeclinedError) return null;
    throw asReadError(error, reading, limits);
  }
}

/**
 * CSV files from this size on are read as an index of the file (file-rows.ts): their rows are
 * read back from the file when the review needs them. A tab holding a million rows as strings
 * holds eight times the file; smaller files read faster into memory, where they cost little.
 */
const INDEXED_FROM_BYTES = 32 * 2 ** 20;
/** Bytes sniffFile looks at (a text file's first 64 KiB tell it apart from a binary one). */
const SNIFFED_BYTES = 65536;

/**
 * A large UTF-8 CSV read as an index of its file (readCsvFile), for a reader that can hold the
 * file and read parts of it again (a worker holds the dropped File); null for any other file, or
 * a CSV the index would not read exactly as readCsv does: the caller then reads it with readTable.
 * Same rows, numbers, errors and sentences as readTable.
 */
export function readIndexedCsv(
  source: ByteSource,
  fileName: string,
  options: ReadTableOptions & { fromBytes?: number } = {},
): TableReadResult<FileRows> | null {
  if (source.size < (options.fromBytes ?? INDEXED_FROM_BYTES)) return null;
  const sniffed = sniffFile(source.read(0, Math.min(source.size, SNIFFED_BYTES)), fileName);
  if (sniffed.kind !== 'text' || sniffed.utf16WithoutBom) return null;
  const limits: TableLimits = { ...DEFAULT_TABLE_LIMITS, ...options.limits };
  forgetShortenedCells();
  const read = readCsvFile(source, limits, options);
  if (!read) return null;
  const sheet = sheetNameOf(fileName);
  return { kind: 'csv', sheets: [{ name: sheet, rowCount: read.rows.length }], sheet, rows: read.rows, rowNumbers: read.rowNumbers, encoding: read.encoding, delimiter: read.delimiter };
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
  forgetShortenedCells();
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
    if (options.sheet === undefined) return rememberedSheet(sheets, options.rememberedHeaders) ?? pickSheet(sheets);
    if (!sheets.some((sheet) => sheet.name === options.sheet)) {
      throw new SpreadsheetReadError('invalid_file', `The workbook has no sheet named "${options.sheet}".`);
    }
    return options.sheet;
  };
  const table =
    (sniffed.kind === 'xlsx' ? await readXlsxTable(bytes, limits, chooseSheet, options) : null) ??
    (await readWorkbook(bytes, limits, chooseSheet, () => {
      signal?.throwIfAborted();
      onProgress?.(0.8);
    }));
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
