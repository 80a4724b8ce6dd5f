import { SpreadsheetReadError, formatCount } from './read-error';

/**
 * Caps that keep a hostile or accidental file from exhausting memory or time in a tab or the
 * sandbox. Every one is checked while the file is read, never after (DESIGN §7).
 */
export interface TableLimits {
  /** Non-empty rows after the first one (the header); 1,000,000 by default. */
  maxRows: number;
  /** Cells in any row; 16,384 by default, Excel's own limit, so a wide file is mapped, not refused. */
  maxColumns: number;
  /**
   * Characters in any cell; 32,767 by default, Excel's own limit. A longer cell is not the file's
   * error but its row's: the reader keeps it shortened (see shortenCell).
   */
  maxCellLength: number;
  /** Bytes any part of an XLSX zip may inflate to; 256 MiB by default. */
  maxPartBytes: number;
  /** Inflated ÷ compressed size of an XLSX part over 16 MiB; 200 by default (real sheets: 5–60). */
  maxInflateRatio: number;
  /** Entries of an XLSX shared-string table; 2,000,000 by default. */
  maxSharedStrings: number;
  /** Characters of text in an XLSX shared-string table; 64 Mi by default. */
  maxSharedStringChars: number;
  /** Characters of XML in one `<row>` of an XLSX sheet; 16 Mi by default (a 2 MiB cell, escaped, fits). */
  maxRowXmlChars: number;
}

export const DEFAULT_TABLE_LIMITS: TableLimits = {
  maxRows: 1_000_000,
  maxColumns: 16_384,
  maxCellLength: 32_767,
  maxPartBytes: 256 * 1024 * 1024,
  maxInflateRatio: 200,
  maxSharedStrings: 2_000_000,
  maxSharedStringChars: 64 * 1024 * 1024,
  maxRowXmlChars: 16 * 1024 * 1024,
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

/**
 * True lengths of the cells the reader shortened, by their shortened text. A shortened cell is
 * one character over the cap, so it stays its row's error even if the lookup misses (an edit, a
 * normalization); the lookup only lets the message give the true length. Cleared on each read
 * (forgetShortenedCells), so it holds at most one file's over-long cells.
 */
const shortenedLengths = new Map<string, number>();

/**
 * A cell over `maxCellLength` characters as the reader keeps it: its first `maxCellLength`
 * characters and an ellipsis, as a string of its own (no slice keeping a file's text alive).
 */
export function shortenCell(text: string, maxCellLength: number): string {
  if (text.length <= maxCellLength || shortenedLengths.has(text)) return text;
  const short = [text.slice(0, maxCellLength), '…'].join('');
  shortenedLengths.set(short, Math.max(text.length, shortenedLengths.get(short) ?? 0));
  return short;
}

/** A cell's length as read from the file: its true length if the reader shortened it. */
export function cellLength(value: string): number {
  if (shortenedLengths.size === 0) return value.length; // nearly always: no hash of every cell
  return shortenedLengths.get(value) ?? value.length;
}

/** Called at the start of each read. */
export function forgetShortenedCells(): void {
  shortenedLengths.clear();
}
