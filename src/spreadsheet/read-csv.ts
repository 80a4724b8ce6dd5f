import Papa from 'papaparse';
import { SpreadsheetReadError, formatCount } from './read-error';
import { shortenCell, type TableLimits } from './table-limits';

/** The delimiters detected, in order of preference on a tie; the ones to offer as an override. */
export const CSV_DELIMITERS = [',', ';', '\t', '|'] as const;

/**
 * The delimiter that splits the first lines into the most consistent number of fields (more
 * than one). Papaparse's own guess prefers "," on ties with title lines, which breaks
 * European files ("1,5;2,5"), hence a guess of our own on top of its quote-aware parser. Only
 * the first 64 KiB of the text count, so a head of 65,537 characters or more guesses the same.
 */
export function detectDelimiter(text: string): string {
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

const QUOTE = 34;
/** What papaparse refuses as a delimiter (it falls back to a comma). */
const BAD_DELIMITERS = new Set(['\r', '\n', '"', '\ufeff']);

/** The line break papaparse would use: its own guess, made on the first megabyte of the text. */
function papaparseLineBreak(text: string, delimiter: string): string {
  return Papa.parse<string[]>(text.slice(0, 1024 * 1024), { delimiter, preview: 1 }).meta.linebreak;
}

/**
 * Whether text.slice(start, end).trim() would be empty, asking trim() (and making the string) only
 * when the first character is not plainly visible.
 */
function isBlankText(text: string, start: number, end: number): boolean {
  if (start === end) return true;
  const first = text.charCodeAt(start);
  return !(first > 32 && first < 127) && text.slice(start, end).trim() === '';
}

/** How readRegularCsv splits a text: cells at one plain character, rows at papaparse's line break. */
export class CsvGrammar {
  constructor(
    readonly delimiter: string,
    readonly lineBreak: string,
  ) {}
}

/**
 * The grammar readRegularCsv reads a text with, from its head: papaparse guesses the line break
 * from the first megabyte alone. Null for a delimiter readRegularCsv leaves to papaparse.
 */
export function csvGrammar(head: string, delimiter: string): CsvGrammar | null {
  if (delimiter.length !== 1 || BAD_DELIMITERS.has(delimiter)) return null;
  return new CsvGrammar(delimiter, papaparseLineBreak(head, delimiter));
}

type Violation = { message: string; line: number } | null;

/** Where a scan stands between the pieces of a text. */
export class CsvScan {
  /** The line the next row starts on. */
  line = 1;
  /** Non-empty rows read. */
  rowCount = 0;
  /** The first row over the column limit. Papaparse reports an unterminated quote before any limit, so it waits for the end. */
  violation: Violation = null;
}

/** The string a row keeps of a cell: a shared one, say, or a copy that does not hold the text alive. */
export interface CellKeeper {
  keep(column: number, value: string): string;
}

/** What a scan gives of each non-empty row; parts left out are not made. */
export class CsvRowsOut {
  /** The rows' cells; null indexes the rows without making a string of any cell. */
  readonly cells: string[][] | null;
  /** Applied to each cell not over the length limit; null keeps slices of the text. */
  readonly keeper: CellKeeper | null;
  /** Where each row starts in the text. */
  readonly starts: number[] | null;
  /** The line each row starts on. */
  readonly rowNumbers: number[] | null;
  /** The scan stops after this many rows; 0 reads on to the end. */
  readonly until: number;

  constructor(parts: { cells?: string[][]; keeper?: CellKeeper | null; starts?: number[]; rowNumbers?: number[]; until?: number }) {
    this.cells = parts.cells ?? null;
    this.keeper = parts.keeper ?? null;
    this.starts = parts.starts ?? null;
    this.rowNumbers = parts.rowNumbers ?? null;
    this.until = parts.until ?? 0;
  }

  /**
   * One object of each shape scanCsvRows reads, kept for the module's life. Its optimized code
   * checks these shapes, and a full garbage collection forgets a shape no object has any more,
   * and with it that code: each read would start over in the interpreter.
   */
  private static readonly scannedShapes = [new CsvGrammar(',', '\n'), new CsvScan(), new CsvRowsOut({ cells: [], rowNumbers: [] })];
}

/**
 * The one-pass reader of regular CSV (readRegularCsv), from `from`, the start of a row on line
 * scan.line. It returns where it stopped, scan standing there: the end of the text; after `until`
 * rows, the start of the next line; and, when `more` text follows this piece of it, the start of
 * the row the piece ends inside of (its last cell, a doubled quote or a "\r\n" may go on in the
 * next piece), to scan again with the next piece. It returns -1 for text papaparse treats
 * specially.
 */
export function scanCsvRows(text: string, from: number, more: boolean, grammar: CsvGrammar, limits: TableLimits, scan: CsvScan, out: CsvRowsOut): number {
  const { delimiter, lineBreak } = grammar;
  const { cells, keeper, starts, rowNumbers, until } = out;
  const delimiterCode = delimiter.charCodeAt(0);
  const breakCode = lineBreak.charCodeAt(0);
  const breakLength = lineBreak.length;
  // Lines are counted as readCsv counts them: by "\r" in old Mac files, else by "\n", so a
  // bare "\n" in a cell of a "\r\n" file starts a line too.
  const lineChar = lineBreak === '\r' ? '\r' : '\n';
  const lineCode = lineChar.charCodeAt(0);
  const { maxColumns, maxCellLength } = limits;
  const end = text.length;
  // Fields of the current row; copied out at its end, so each row is an array of its exact size.
  const fields: string[] = [];
  let fieldCount = 0;
  let blank = true;
  let { line, rowCount, violation } = scan;
  let rowLine = line;
  let rowStart = from;
  let kept = 0;
  let at = from;
  // One way out of the loop, a break with `at` and `line` where the scan stops: a return at each
  // stop makes the optimized loop slower.
  rows: for (;;) {
    let next: number;
    let value = '';
    if (at < end && text.charCodeAt(at) === QUOTE) {
      let close = at + 1;
      let escaped = false;
      for (;;) {
        close = text.indexOf('"', close);
        // A doubled quote is a quote in the value; a quote last in the text always closes (last in
        // a piece, the next piece may double it).
        if (close === -1 || close === end - 1) {
          if (more) {
            at = rowStart;
            line = rowLine;
            break rows;
          }
          if (close === -1) return -1;
          break;
        }
        if (text.charCodeAt(close + 1) !== QUOTE) break;
        escaped = true;
        close += 2;
      }
      next = close + 1;
      if (next < end && text.charCodeAt(next) !== delimiterCode && !(text.charCodeAt(next) === breakCode && text.startsWith(lineBreak, next))) {
        // A "\r" last in a piece may begin a "\r\n".
        if (!more || next + breakLength <= end) return -1;
        at = rowStart;
        line = rowLine;
        break;
      }
      // Line breaks inside the quotes are lines of the file, not rows.
      if (cells) {
        value = text.slice(at + 1, close);
        if (escaped) value = value.replaceAll('""', '"');
        for (let found = value.indexOf(lineChar); found !== -1; found = value.indexOf(lineChar, found + 1)) line++;
      } else {
        for (let found = text.indexOf(lineChar, at + 1); found !== -1 && found < close; found = text.indexOf(lineChar, found + 1)) line++;
        if (blank && !isBlankText(text, at + 1, close)) blank = false;
      }
    } else {
      next = at;
      for (; next < end; next++) {
        const code = text.charCodeAt(next);
        if (code === delimiterCode || (code === breakCode && (breakLength === 1 || text.charCodeAt(next + 1) === 10))) break;
        if (code === lineCode) line++;
      }
      if (cells) value = text.slice(at, next);
      else if (blank && !isBlankText(text, at, next)) blank = false;
    }
    if (cells) {
      // An over-long cell is its row's error (validate-row), kept shortened: the file reads on.
      fields[fieldCount] = value.length > maxCellLength ? shortenCell(value, maxCellLength) : keeper ? keeper.keep(fieldCount, value) : value;
      if (blank && !isBlankText(value, 0, value.length)) blank = false;
    }
    fieldCount++;
    if (next < end && text.charCodeAt(next) === delimiterCode) {
      at = next + 1;
      continue;
    }
    // The end of a row: a line break, or the end of the text (of a piece: the next may go on with the row).
    if (next >= end && more) {
      at = rowStart;
      line = rowLine;
      break;
    }
    if (!blank) {
      if (violation === null && fieldCount > maxColumns) {
        violation = { line: rowLine, message: `The file has ${formatCount(fieldCount)} columns; the limit is ${formatCount(maxColumns)}.` };
      }
      rowCount++;
      kept++;
      if (cells) cells.push(fields.slice(0, fieldCount));
      if (starts) starts.push(rowStart);
      if (rowNumbers) rowNumbers.push(rowLine);
    }
    fieldCount = 0;
    blank = true;
    if (next >= end) {
      at = end;
      break;
    }
    at = next + breakLength;
    rowLine = ++line;
    rowStart = at;
    if (kept === until && until !== 0) break;
  }
  scan.line = line;
  scan.rowCount = rowCount;
  scan.violation = violation;
  return at;
}

/** Throws the scan's column violation, once the text is known to be regular. */
export function throwColumnViolation(scan: CsvScan): void {
  if (scan.violation) throw new SpreadsheetReadError('too_large', scan.violation.message, scan.violation.line);
}

/**
 * Texts from this length on share their repeated cells. Sharing costs the read a hash of every
 * short cell (~30 ms of 100,000 rows in a cold worker, a fifth of the read) and spares the heap a
 * string per repeat (~110 MB at 1,000,000 rows): a file this size is one whose memory matters
 * more than the last tenth of a second before its Columns step.
 */
const SHARE_FROM_CHARS = 32 * 2 ** 20;
/** Cells up to this long are worth sharing; longer ones are rarely repeated. */
const SHARED_CELL_LENGTH = 48;
/** Cells looked at before a column's sharing is judged, and the share of repeats it must have. */
const SHARING_TRIAL = 1024;
/** Distinct cells kept per column: a column with more is not one of few values. */
const SHARED_PER_COLUMN = 4096;

/**
 * One string per distinct cell of the columns that repeat a few values (a type, a carrier, a
 * date, a team's e-mails): a file's cells are most of the worker's memory, and every cell the
 * review reads is a string the processor's cache may already hold. A column is watched for its
 * first SHARING_TRIAL cells and given up on unless most of them repeat; the values are the same
 * strings either way.
 */
class SharedCells implements CellKeeper {
  private readonly columns: (Map<string, string> | null)[] = [];
  private readonly looked: number[] = [];
  private readonly found: number[] = [];

  keep(column: number, value: string): string {
    if (value.length > SHARED_CELL_LENGTH || value.length === 0) return value;
    let cells = this.columns[column];
    if (cells === null) return value;
    if (cells === undefined) {
      cells = this.columns[column] = new Map();
      this.looked[column] = 0;
      this.found[column] = 0;
    }
    const looked = (this.looked[column] = (this.looked[column] ?? 0) + 1);
    const known = cells.get(value);
    if (known !== undefined) {
      this.found[column] = (this.found[column] ?? 0) + 1;
      return known;
    }
    if (cells.size >= SHARED_PER_COLUMN || (looked === SHARING_TRIAL && (this.found[column] ?? 0) < SHARING_TRIAL / 2)) {
      this.columns[column] = null;
      return value;
    }
    cells.set(value, value);
    return value;
  }
}

/**
 * readCsv for well-formed text (most files), in one pass that parses, numbers lines, skips empty
 * rows and checks the limits, instead of papaparse and then a second pass over a million cells:
 * the same rows as papaparse, in less time than papaparse alone (100,000-row bench file: ≈145
 * against ≈170 ms CPU, ≈195 before). It gives up (null) on anything papaparse treats specially:
 * an unterminated quoted field, text between a closing quote and the next delimiter or line
 * break, a delimiter that is not one plain character. readCsv then takes papaparse's path,
 * errors and all; read-csv.test.ts holds the two paths to the same results on random text.
 */
function readRegularCsv(text: string, limits: TableLimits, delimiter: string): CsvTable | null {
  const grammar = csvGrammar(text, delimiter);
  if (grammar === null) return null;
  const rows: string[][] = [];
  const rowNumbers: number[] = [];
  const scan = new CsvScan();
  const keeper = text.length >= SHARE_FROM_CHARS ? new SharedCells() : null;
  if (scanCsvRows(text, 0, false, grammar, limits, scan, new CsvRowsOut({ cells: rows, keeper, rowNumbers })) === -1) return null;
  throwColumnViolation(scan);
  return { rows, rowNumbers, delimiter };
}

/** Rows of CSV text, empty lines skipped, each with the 1-based line it starts on. */
export function readCsv(text: string, limits: TableLimits, delimiterOverride?: string): CsvTable {
  const delimiter = delimiterOverride ?? detectDelimiter(text);
  return readRegularCsv(text, limits, delimiter) ?? readCsvWithPapaparse(text, limits, delimiter);
}

/** readCsv through papaparse, for any text; exported for the tests that hold the one-pass reader to it. */
export function readCsvWithPapaparse(text: string, limits: TableLimits, delimiter: string): CsvTable {
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
  const mayHaveLongCells = text.length > limits.maxCellLength;
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
    if (mayHaveLongCells) {
      for (const [column, cell] of row.entries()) {
        if (cell.length > limits.maxCellLength) row[column] = shortenCell(cell, limits.maxCellLength);
      }
    }
    rows.push(row);
    rowNumbers.push(rowLine);
  }
  return { rows, rowNumbers, delimiter };
}
