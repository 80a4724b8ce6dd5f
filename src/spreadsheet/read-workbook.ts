import type { CellObject, WorkBook, WorkSheet } from '@e965/xlsx';
import { SpreadsheetReadError, formatCount } from './read-error';
import { checkRowCount, shortenCell } from './table-limits';
import type { TableLimits } from './table-limits';

import type * as XlsxModule from '@e965/xlsx';

type Xlsx = typeof XlsxModule;
/** SheetJS types its number-format library as any; this is the one function used from it. */
type NumberFormats = { is_date: (format: string) => boolean };
type FormatKind = 'number' | 'date' | 'datetime' | 'time';

export interface WorkbookSheetTable {
  name: string;
  /** Non-empty rows, the header included. */
  rowCount: number;
  /** The first non-empty rows, enough to score the sheet's header. */
  head: string[][];
}

export interface WorkbookTable {
  sheets: WorkbookSheetTable[];
  sheet: string;
  rows: string[][];
  rowNumbers: number[];
}

/** Excel day 0 is 1899-12-30 for serials after the phantom 1900-02-29 (serial 60). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const EXCEL_EPOCH_1904_MS = Date.UTC(1904, 0, 1);
const DAY_SECONDS = 86400;

function serialToText(serial: number, date1904: boolean, kind: 'date' | 'datetime'): string {
  const days = Math.floor(serial);
  if (!date1904 && days === 60) return '1900-02-29';
  const base = date1904 ? EXCEL_EPOCH_1904_MS : days < 60 ? EXCEL_EPOCH_MS + 86400000 : EXCEL_EPOCH_MS;
  const seconds = Math.round((serial - days) * DAY_SECONDS);
  // UTC arithmetic only: the same file gives the same dates in every time zone.
  const iso = new Date(base + (days * DAY_SECONDS + seconds) * 1000).toISOString();
  if (kind === 'date' || seconds === 0) return iso.slice(0, 10);
  const time = iso.slice(11, 19);
  return `${iso.slice(0, 10)} ${time.endsWith(':00') ? time.slice(0, 5) : time}`;
}

function integerText(value: number): string {
  // String(1e21) is "1e+21": only BigInt writes every digit of such numbers.
  return Math.abs(value) < 1e21 ? String(value === 0 ? 0 : value) : BigInt(value).toString();
}

class CellText {
  private readonly formatKinds = new Map<string, FormatKind>();

  constructor(
    private readonly xlsx: Xlsx,
    private readonly date1904: boolean,
  ) {}

  private formatKind(format: string): FormatKind {
    let kind = this.formatKinds.get(format);
    if (kind === undefined) {
      if (!(this.xlsx.SSF as NumberFormats).is_date(format)) kind = 'number';
      else {
        const bare = format.replace(/"[^"]*"|\[[^\]]*\]|\\./g, '');
        kind = /[yd]/i.test(bare) ? (/[hs]/i.test(bare) ? 'datetime' : 'date') : 'time';
      }
      this.formatKinds.set(format, kind);
    }
    return kind;
  }

  /** A cell as a person sees it in Excel, except that whole numbers never get exponents or ".0". */
  of(cell: CellObject | undefined): string {
    if (!cell) return '';
    switch (cell.t) {
      case 's':
        return typeof cell.v === 'string' ? cell.v : String(cell.v ?? '');
      case 'n': {
        const value = cell.v as number;
        const kind = typeof cell.z === 'string' ? this.formatKind(cell.z) : 'number';
        if (kind === 'date' || kind === 'datetime') return serialToText(value, this.date1904, kind);
        if (kind === 'time' && cell.w !== undefined) return cell.w;
        if (Number.isInteger(value)) return integerText(value);
        return cell.w !== undefined && !/e[+-]/i.test(cell.w) ? cell.w : String(value);
      }
      case 'b':
        return cell.v ? 'TRUE' : 'FALSE';
      case 'e':
        return cell.w ?? '#ERROR!';
      case 'd':
        return cell.v instanceof Date ? cell.v.toISOString().slice(0, 10) : String(cell.v ?? '');
      default:
        return '';
    }
  }
}

function sheetCells(sheet: WorkSheet): (CellObject[] | undefined)[] {
  return (sheet['!data'] as (CellObject[] | undefined)[] | undefined) ?? [];
}

function isEmptyCellRow(row: CellObject[] | undefined): boolean {
  if (!row) return true;
  for (const cell of row) {
    if (cell && cell.t !== 'z' && cell.v !== undefined && cell.v !== null && (cell.t !== 's' || String(cell.v).trim() !== '')) return false;
  }
  return true;
}

function parseWorkbook(xlsx: Xlsx, bytes: Uint8Array, limits: TableLimits): WorkBook {
  try {
    return xlsx.read(bytes, {
      type: 'array',
      dense: true,
      cellNF: true,
      cellHTML: false,
      cellFormula: false,
      cellStyles: false,
      // Header and a few title rows above it, plus one to notice a sheet over the limit.
      sheetRows: limits.maxRows + 12,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (/password|encrypt/i.test(reason)) {
      throw new SpreadsheetReadError('invalid_file', 'This workbook is password-protected; remove the password in Excel and try again.');
    }
    throw new SpreadsheetReadError('invalid_file', 'This workbook could not be read; it may be damaged or cut short.');
  }
}

function fullRowCount(xlsx: Xlsx, sheet: WorkSheet): number | null {
  const fullRef = sheet['!fullref'] as string | undefined;
  return fullRef ? xlsx.utils.decode_range(fullRef).e.r + 1 : null;
}

/**
 * Rows of one sheet of an XLSX/XLS workbook through SheetJS, which is imported here and only
 * here, so that it stays out of the console's first bundle.
 */
export async function readWorkbook(
  bytes: Uint8Array,
  limits: TableLimits,
  chooseSheet: (sheets: WorkbookSheetTable[]) => string,
  onParsed?: () => void,
): Promise<WorkbookTable> {
  const xlsx = await import('@e965/xlsx');
  const workbook = parseWorkbook(xlsx, bytes, limits);
  onParsed?.();
  const cellText = new CellText(xlsx, Boolean(workbook.Workbook?.WBProps?.date1904));

  const sheets: WorkbookSheetTable[] = workbook.SheetNames.map((name) => {
    const cells = sheetCells(workbook.Sheets[name] ?? {});
    const head: string[][] = [];
    let rowCount = 0;
    for (const row of cells) {
      if (isEmptyCellRow(row)) continue;
      rowCount++;
      if (head.length < 30 && row) head.push(Array.from(row, (cell) => cellText.of(cell)));
    }
    return { name, rowCount, head };
  });
  if (sheets.length === 0) throw new SpreadsheetReadError('invalid_file', 'The workbook has no sheets.');

  const name = chooseSheet(sheets);
  const worksheet = workbook.Sheets[name];
  if (!worksheet) throw new SpreadsheetReadError('invalid_file', `The workbook has no sheet named "${name}".`);
  const fullRows = fullRowCount(xlsx, worksheet);
  if (fullRows !== null && fullRows - 1 > limits.maxRows) {
    throw new SpreadsheetReadError(
      'too_large',
      `The sheet "${name}" has ${formatCount(fullRows - 1)} rows; the limit is ${formatCount(limits.maxRows)}.`,
    );
  }

  const firstColumn = worksheet['!ref'] ? xlsx.utils.decode_range(worksheet['!ref']).s.c : 0;
  const rows: string[][] = [];
  const rowNumbers: number[] = [];
  const cells = sheetCells(worksheet);
  for (let r = 0; r < cells.length; r++) {
    const row = cells[r];
    if (!row || isEmptyCellRow(row)) continue;
    if (row.length - firstColumn > limits.maxColumns) {
      throw new SpreadsheetReadError(
        'too_large',
        `The sheet "${name}" has ${formatCount(row.length - firstColumn)} columns; the limit is ${formatCount(limits.maxColumns)}.`,
        r + 1,
      );
    }
    const texts = new Array<string>(row.length - firstColumn);
    for (let c = firstColumn; c < row.length; c++) {
      // An over-long cell is its row's error (validate-row), kept shortened: the sheet reads on.
      texts[c - firstColumn] = shortenCell(cellText.of(row[c]), limits.maxCellLength);
    }
    rows.push(texts);
    rowNumbers.push(r + 1);
  }
  checkRowCount(rows.length, limits);
  return { sheets, sheet: name, rows, rowNumbers };
}
