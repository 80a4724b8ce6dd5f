import Papa from 'papaparse';
import { SpreadsheetReadError, formatCount } from './read-error';
import type { TableLimits } from './table-limits';

/** The delimiters detected, in order of preference on a tie; the ones to offer as an override. */
export const CSV_DELIMITERS = [',', ';', '\t', '|'] as const;

/**
 * The delimiter that splits the first lines into the most consistent number of fields (more
 * than one). Papaparse's own guess prefers "," on ties with title lines, which breaks
 * European files ("1,5;2,5"), hence a guess of our own on top of its quote-aware parser.
 */
function detectDelimiter(text: string): string {
  const sample = text.length > 65536 ? text.slice(0, text.lastIndexOf('\n', 65536) + 1 || 65536) : text;
  let best: string = CSV_DELIMITERS[0];
  let bestScore = 0;
  for (const delimiter of CSV_DELIMITERS) {
    const { data } = Papa.parse<string[]>(sample, { delimiter, preview: 30, skipEmptyLines: 'greedy' });
    const frequency = new Map<number, number>();
    for (const row of data) frequency.set(row.length, (frequency.get(row.length) ?? 0) + 1);
    let mode = 0;
    let modeRows = 0;
    for (const [fields, rows] of frequency) {
      if (rows > modeRows || (rows === modeRows && fields > mode)) [mode, modeRows] = [fields, rows];
    }
    if (mode < 2) continue;
    // Consistency first (share of lines with the usual field count), then more fields.
    const score = (modeRows / data.length) * 1000 + Math.min(mode, 999);
    if (score > bestScore) [best, bestScore] = [delimiter, score];
  }
  return best;
}

function isEmptyRow(row: string[]): boolean {
  for (const cell of row) if (cell.trim() !== '') return false;
  return true;
}

function countOf(text: string, char: string, end = text.length): number {
  let count = 0;
  for (let at = text.indexOf(char); at !== -1 && at < end; at = text.indexOf(char, at + 1)) count++;
  return count;
}

export interface CsvTable {
  rows: string[][];
  rowNumbers: number[];
  delimiter: string;
}

/** Rows of CSV text, empty lines skipped, each with the 1-based line it starts on. */
export function readCsv(text: string, limits: TableLimits, delimiterOverride?: string): CsvTable {
  const delimiter = delimiterOverride ?? detectDelimiter(text);
  const parsed = Papa.parse<string[]>(text, { delimiter, skipEmptyLines: false });
  const lineBreak = parsed.meta.linebreak === '\r' ? '\r' : '\n';

  const unterminated = parsed.errors.find((error) => error.code === 'MissingQuotes');
  if (unterminated) {
    const quoteAt = Math.max(0, (unterminated.index ?? 0) - 1);
    const line = countOf(text, lineBreak, quoteAt) + 1;
    throw new SpreadsheetReadError('invalid_file', `Line ${formatCount(line)} has a quote that is never closed.`, line);
  }

  // When there are as many line breaks as records, no cell holds one, and record i is line i + 1.
  const lineBreaks = countOf(text, lineBreak);
  const multiLineCells = lineBreaks + 1 !== parsed.data.length;
  const checkCellLength = text.length > limits.maxCellLength;
  const rows: string[][] = [];
  const rowNumbers: number[] = [];
  let line = 1;
  for (const row of parsed.data) {
    const rowLine = line;
    line++;
    if (multiLineCells) for (const cell of row) if (cell.includes(lineBreak)) line += countOf(cell, lineBreak);
    if (isEmptyRow(row)) continue;
    if (row.length > limits.maxColumns) {
      throw new SpreadsheetReadError(
        'too_large',
        `The file has ${formatCount(row.length)} columns; the limit is ${formatCount(limits.maxColumns)}.`,
        rowLine,
      );
    }
    if (checkCellLength) {
      const column = row.findIndex((cell) => cell.length > limits.maxCellLength);
      const long = row[column];
      if (long !== undefined) {
        throw new SpreadsheetReadError(
          'too_large',
          `Line ${formatCount(rowLine)} has a cell of ${formatCount(long.length)} characters (column ${formatCount(column + 1)}); the limit is ${formatCount(limits.maxCellLength)}.`,
          rowLine,
        );
      }
    }
    rows.push(row);
    rowNumbers.push(rowLine);
  }
  return { rows, rowNumbers, delimiter };
}
