import { SpreadsheetReadError, formatCount } from './read-error';

/** Caps that keep a hostile or accidental file from exhausting memory in a tab or the sandbox. */
export interface TableLimits {
  /** Non-empty rows after the first one (the header); 1,000,000 by default. */
  maxRows: number;
  /** Cells in any row; 16,384 by default, Excel's own limit, so a wide file is mapped, not refused. */
  maxColumns: number;
  /** Characters in any cell; 32,767 by default, Excel's own limit. */
  maxCellLength: number;
}

export const DEFAULT_TABLE_LIMITS: TableLimits = {
  maxRows: 1_000_000,
  maxColumns: 16_384,
  maxCellLength: 32_767,
};

export function checkRowCount(rowCount: number, limits: TableLimits): void {
  const dataRows = rowCount - 1;
  if (dataRows > limits.maxRows) {
    throw new SpreadsheetReadError(
      'too_large',
      `The file has ${formatCount(dataRows)} rows; the limit is ${formatCount(limits.maxRows)}.`,
    );
  }
}
