// Rows of a job's results as files for people: CSV and XLSX, every cell formula-escaped
// (DESIGN §7). Pure; the XLSX writer takes SheetJS as an argument so that only the results
// thread (jobs/thread/results-session.ts), which holds the rows, loads it.
import Papa from 'papaparse';
import type * as XlsxModule from '@e965/xlsx';

/** The columns and rows of a download, as plain text (not yet escaped). */
export interface ExportTable {
  columns: string[];
  rows: string[][];
}

/**
 * A cell that a spreadsheet program would run as a formula: starting with =, +, -, @, tab or CR.
 * Not papaparse's own `escapeFormulae: true`, whose /^[=+\-@\t\r].*$/ misses a cell with a line
 * break after its first character (`.` stops at "\n").
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** The cell as it is written to a file: a formula-like cell gets a leading apostrophe. */
export function escapeFormula(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/** The download as CSV, every formula-like cell escaped, CRLF line ends. */
export function toEscapedCsv(table: ExportTable): string {
  return Papa.unparse({ fields: table.columns, data: table.rows }, { escapeFormulae: FORMULA_START, newline: '\r\n' });
}

/** The download as an XLSX workbook of text cells, escaped as in the CSV. */
export function toEscapedXlsx(XLSX: typeof XlsxModule, table: ExportTable, sheetName: string): Uint8Array {
  const width = table.columns.length;
  const aoa = [table.columns.map(escapeFormula), ...table.rows.map((row) => Array.from({ length: width }, (_, c) => escapeFormula(row[c] ?? '')))];
  // Every value is a string, so every cell is a text cell: "00123" or "2024-05-01" stay as sent.
  const sheet = XLSX.utils.aoa_to_sheet(aoa);
  sheet['!cols'] = table.columns.map((column) => ({ wch: Math.min(Math.max(column.length, 14), 60) }));
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, sheetName.slice(0, 31) || 'Rows');
  return new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
}
