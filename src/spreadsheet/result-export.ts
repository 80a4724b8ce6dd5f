// Rows of a job's results as files for people: CSV and XLSX, every cell formula-escaped
// (DESIGN §7). Pure; the XLSX writer takes SheetJS as an argument so that only the export
// worker loads it.
//
// The table travels from the page to the worker as one CSV string (`toExportSource`, not
// escaped): one string is copied to a worker in a few milliseconds, where a hundred thousand
// row arrays would hold the main thread for the structured clone of a million strings.
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

/**
 * The table as CSV, unescaped: how the page hands rows to the export worker. `header: false`
 * writes the rows only, for a slice that follows another (joined with CRLF).
 */
export function toExportSource(table: ExportTable, header = true): string {
  // papaparse ends a header with no rows under it with a line break, which would read back as a row.
  return Papa.unparse({ fields: table.columns, data: table.rows }, { header, newline: '\r\n' }).replace(/\r\n$/, '');
}

/** Reads what toExportSource wrote. */
export function fromExportSource(source: string): ExportTable {
  const { data } = Papa.parse<string[]>(source, { newline: '\r\n' });
  const [columns = [], ...rows] = data;
  return { columns, rows };
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
