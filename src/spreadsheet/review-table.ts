import { FILE_HEADERS } from '../contract/import-file';
import type { ColumnMapping, ColumnTarget } from './column-mapping';
import { addToReferenceIndex, createReferenceIndex, removeFromReferenceIndex, rowsWithReference } from './reference-index';
import type { ReferenceIndex } from './reference-index';
import { type IssueCode, type RowIssue, worstFirst } from './row-issue';
import { DEFAULT_TABLE_LIMITS } from './table-limits';
import { TextColumn } from './text-column';
import type { TableRows } from './file-rows';
import type { RowNumbers } from './row-numbers';
import { createValidationContext, reviewColumns, validateRow } from './validate-row';
import type { RowValidationContext } from './validate-row';

/** Bits of ReviewTable.flags, one byte per row. ROW_ERROR: an error of the row's own or a duplicate reference. */
export const ROW_ERROR = 1;
const ROW_WARNING = 2;
const ROW_AUTO_FIXED = 4;
export const ROW_EXCLUDED = 8;
/** The row's reference is on another row not excluded. */
const ROW_DUPLICATE = 16;
/** The row has an error of its own (not counting a duplicate reference). */
const ROW_INVALID = 32;

export interface ReviewCounts {
  rows: number;
  /** Rows not excluded that have at least one error (they cannot be submitted). */
  errorRows: number;
  /** Rows not excluded that have at least one warning. */
  warningRows: number;
  /** Rows not excluded that have at least one auto-fix. */
  autoFixedRows: number;
  excludedRows: number;
  /** Rows that will be submitted: not excluded, no error. */
  readyRows: number;
}

/** A cell as it was before a change: the user's earlier value, or undefined for the file's own. */
type CellEdit = { row: number; column: number; previous: string | undefined };
type ReviewChange = { kind: 'cells'; cells: CellEdit[] } | { kind: 'exclusion'; rows: number[]; excluded: boolean };

/** The rows read, as a reader gives them: an array of rows, or rows a file holds and reads back (file-rows.ts). */
export interface SourceRows {
  rows: TableRows;
  /** 1-based line or row of the file for each entry of rows. */
  rowNumbers: RowNumbers;
}

/**
 * The rows under review and what the checks found, updated in place by the functions of this
 * module, which keep flags, counts and duplicate references right after every change. The values
 * themselves are not kept: a row's normalized values and issues are worked out again from the
 * file's cells and the user's edits when asked (readRow), as validateRow is pure and takes about
 * a microsecond. Kept per row are only its flags and its reference, which duplicates and
 * foresight read for every row: a file of a million rows reviewed in a browser tab costs these
 * and not ten million strings.
 */
export interface ReviewTable {
  /** Every spec header in FILE_HEADERS order, then the mapped cf_ columns. */
  columns: ColumnTarget[];
  /** The rows read; row r of the review is source row firstRow + r. */
  source: TableRows;
  firstRow: number;
  /** sourceColumns[column]: the column of the source mapped to it, or -1. */
  sourceColumns: number[];
  /** edits[column]: row → the cell as the user set it, in place of the file's. */
  edits: Map<number, string>[];
  /** The normalized reference of each row checked. */
  references: TextColumn;
  /** 1-based line or row of the file for each source row (rowNumberOf gives a review row's). */
  sourceRowNumbers: RowNumbers;
  /** What the row numbers count, as messages name it: "line" (text file) or "row" (sheet). */
  rowWord: 'line' | 'row';
  /** ROW_ERROR | ROW_WARNING | ROW_AUTO_FIXED | ROW_EXCLUDED (| the kind of error) per row. */
  flags: Uint8Array;
  counts: ReviewCounts;
  /** Rows by reference, excluded rows left out, to keep duplicate references flagged. */
  referenceIndex: ReferenceIndex;
  context: RowValidationContext;
  /** Undo stack, newest last. */
  history: ReviewChange[];
  /** Bumped by every change, for views that re-render on it. */
  version: number;
  /** Rows checked so far, from the first (see beginReviewTable): their flags are theirs. */
  checkedRows: number;
  /** The source rows read last: rows read in order are sliced from the source a block at a time. */
  sourceWindow: { from: number; rows: readonly (readonly string[])[] };
}

export interface ReviewTableOptions {
  /** Longest cell accepted; DEFAULT_TABLE_LIMITS.maxCellLength by default. */
  maxCellLength?: number;
  /** What the source's row numbers count: "line" for a text file, "row" (the default) for a sheet. */
  rowWord?: 'line' | 'row';
}

/** Position of the reference column: review columns are FILE_HEADERS first (see reviewColumns). */
const REFERENCE = FILE_HEADERS.indexOf('reference');
const HISTORY_LIMIT = 50;
/** Source rows sliced at a time when rows are read in order. */
const WINDOW_ROWS = 256;

function countFlags(counts: ReviewCounts, flags: number, sign: 1 | -1): void {
  if (flags & ROW_EXCLUDED) {
    counts.excludedRows += sign;
    return;
  }
  if (flags & ROW_ERROR) counts.errorRows += sign;
  else counts.readyRows += sign;
  if (flags & ROW_WARNING) counts.warningRows += sign;
  if (flags & ROW_AUTO_FIXED) counts.autoFixedRows += sign;
}

/** The flags of a row's own issues. */
function flagsOf(issues: readonly RowIssue[] | undefined): number {
  let flags = 0;
  if (issues) {
    for (const issue of issues) {
      flags |= issue.level === 'error' ? ROW_INVALID : issue.level === 'warning' ? ROW_WARNING : ROW_AUTO_FIXED;
    }
  }
  return flags;
}

/** Sets a row's flags, ROW_ERROR worked out from the kinds of error, and moves its counts. */
function setFlags(table: ReviewTable, row: number, next: number): void {
  const old = table.flags[row] ?? 0;
  const flags = next & (ROW_INVALID | ROW_DUPLICATE) ? next | ROW_ERROR : next & ~ROW_ERROR;
  if (old === flags) return;
  countFlags(table.counts, old, -1);
  countFlags(table.counts, flags, 1);
  table.flags[row] = flags;
}

/** The cells of a source row, as read (through the window of rows read last). */
function sourceRow(table: ReviewTable, row: number): readonly string[] {
  const at = table.firstRow + row;
  let window = table.sourceWindow;
  if (at < window.from || at >= window.from + window.rows.length) {
    window = table.sourceWindow = { from: at, rows: table.source.slice(at, Math.min(at + WINDOW_ROWS, table.source.length)) };
  }
  return window.rows[at - window.from] ?? [];
}

/** A row's cells by review column, as the user last left them: the edits, else the file's. */
function rawRow(table: ReviewTable, row: number, raw: string[]): string[] {
  const cells = sourceRow(table, row);
  const { sourceColumns, edits } = table;
  for (let c = 0; c < sourceColumns.length; c++) {
    const from = sourceColumns[c] ?? -1;
    const edit = edits[c];
    raw[c] = edit !== undefined && edit.size > 0 && edit.has(row) ? (edit.get(row) ?? '') : from >= 0 ? (cells[from] ?? '') : '';
  }
  return raw;
}

/** The row's line or row in the file, for people. */
export function rowNumberOf(table: ReviewTable, row: number): number {
  return table.sourceRowNumbers.at(table.firstRow + row) ?? row + 1;
}

function referenceReader(table: ReviewTable): (row: number) => string {
  return (row) => table.references.get(row);
}

function duplicateIssue(table: ReviewTable, row: number, group: number[]): RowIssue {
  const others = group.filter((other) => other !== row);
  const shown = others.slice(0, 3).map((other) => String(rowNumberOf(table, other)));
  const where =
    others.length === 1
      ? `${table.rowWord} ${shown[0]}`
      : others.length <= 3
        ? `${table.rowWord}s ${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`
        : `${table.rowWord}s ${shown.join(', ')} and ${others.length - 3} more`;
  const reference = table.references.get(row);
  return {
    row, column: 'reference', level: 'error', code: 'duplicate_reference',
    message: `reference: ${reference.length > 40 ? `“${reference.slice(0, 39)}…”` : `“${reference}”`} is also on ${where}; later rows would overwrite earlier ones.`,
  };
}

/** Puts each row of the reference's group right about duplicates (and only about them). */
function refreshDuplicates(table: ReviewTable, reference: string): void {
  const group = rowsWithReference(table.referenceIndex, reference, referenceReader(table));
  for (const row of group) {
    const old = table.flags[row] ?? 0;
    setFlags(table, row, group.length > 1 ? old | ROW_DUPLICATE : old & ~ROW_DUPLICATE);
  }
}

/** A row as it is now: its normalized values (what will be submitted) and its issues, a duplicate reference included. */
export interface ReviewRow {
  values: string[];
  issues: RowIssue[];
}

/** Normalizes and validates a row again from its cells: what the grid shows and the submission sends. */
export function readRow(table: ReviewTable, row: number): ReviewRow {
  if (!(row >= 0 && row < table.counts.rows)) throw new RangeError(`The review table has no row ${row}.`);
  const columnCount = table.columns.length;
  // A checked row without a flag had no issue at all, and validateRow changes no value without an
  // issue (an auto-fix names each change): its values are its cells. Most rows of most files.
  if (row < table.checkedRows && table.flags[row] === 0) return { values: rawRow(table, row, new Array<string>(columnCount)), issues: [] };
  const values = new Array<string>(columnCount);
  const issues = validateRow(row, rawRow(table, row, new Array<string>(columnCount)), values, table.context) ?? [];
  if ((table.flags[row] ?? 0) & ROW_DUPLICATE) {
    issues.push(duplicateIssue(table, row, rowsWithReference(table.referenceIndex, table.references.get(row), referenceReader(table))));
  }
  return { values, issues };
}

/** Validates one row again from its cells, keeping its flags and reference; duplicates are the caller's. */
function revalidate(table: ReviewTable, row: number, raw: string[], out: string[]): void {
  const issues = validateRow(row, rawRow(table, row, raw), out, table.context);
  const reference = out[REFERENCE] ?? '';
  // Set only when changed: a row set again is kept apart (TextColumn), and a bulk edit revalidates every row it touches.
  if (table.references.get(row) !== reference) table.references.set(row, reference);
  setFlags(table, row, flagsOf(issues) | ((table.flags[row] ?? 0) & (ROW_EXCLUDED | ROW_DUPLICATE)));
}

function isExcluded(table: ReviewTable, row: number): boolean {
  return ((table.flags[row] ?? 0) & ROW_EXCLUDED) !== 0;
}

function remember(table: ReviewTable, change: ReviewChange): void {
  table.history.push(change);
  if (table.history.length > HISTORY_LIMIT) table.history.shift();
}

/**
 * A review table being checked a block of rows at a time (so a worker can answer the page between
 * blocks): rows before `checkedRows` are normalized, validated and counted; the rest have no
 * flags until checkUntil reaches them. Duplicate references are flagged when the last row is
 * checked, as they need every row.
 */
export interface ReviewTableCheck {
  readonly table: ReviewTable;
  /** Rows checked so far, from the first. */
  readonly checkedRows: number;
  /** References found on more than one row (flagged on every row of theirs once all are checked). */
  readonly duplicatedReferences: number;
  /** Checks rows up to `until` (exclusive, at most every row); true once every row is checked. */
  checkUntil(until: number): boolean;
}

/**
 * Starts the review table of read rows: the header row chosen, the rest mapped, normalized and
 * validated as checkUntil goes. Rows above the header (titles, notes) are not data and are left out.
 */
export function beginReviewTable(source: SourceRows, headerRow: number, mapping: ColumnMapping, options: ReviewTableOptions = {}): ReviewTableCheck {
  const customTargets = mapping.flatMap((entry) => (entry.target?.startsWith('cf_') ? [entry.target] : []));
  const columns = reviewColumns(customTargets);
  const context = createValidationContext(columns, options.maxCellLength ?? DEFAULT_TABLE_LIMITS.maxCellLength);
  const rowCount = Math.max(0, source.rows.length - headerRow - 1);

  const table: ReviewTable = {
    columns,
    source: source.rows,
    firstRow: headerRow + 1,
    sourceColumns: columns.map((target) => mapping.find((entry) => entry.target === target)?.column ?? -1),
    edits: columns.map(() => new Map<number, string>()),
    references: new TextColumn(rowCount),
    sourceRowNumbers: source.rowNumbers,
    rowWord: options.rowWord ?? 'row',
    flags: new Uint8Array(rowCount),
    counts: { rows: rowCount, errorRows: 0, warningRows: 0, autoFixedRows: 0, excludedRows: 0, readyRows: 0 },
    referenceIndex: createReferenceIndex(rowCount),
    context,
    history: [],
    version: 0,
    checkedRows: 0,
    sourceWindow: { from: 0, rows: [] },
  };

  const raw = new Array<string>(columns.length).fill('');
  const out = new Array<string>(columns.length).fill('');
  const { flags, counts, referenceIndex, references } = table;
  /** References found on more than one row: flagged at the check's end, then only counted. */
  let duplicated = new Set<string>();
  let duplicatedCount = 0;
  const referenceOf = referenceReader(table);
  let checked = 0;
  const checkUntil = (until: number): boolean => {
    if (checked === rowCount) return true;
    const end = Math.min(rowCount, until);
    for (let row = checked; row < end; row++) {
      const rowFlags = flagsOf(validateRow(row, rawRow(table, row, raw), out, context));
      const reference = out[REFERENCE] ?? '';
      references.set(row, reference);
      const withError = rowFlags & ROW_INVALID ? rowFlags | ROW_ERROR : rowFlags;
      flags[row] = withError;
      countFlags(counts, withError, 1);
      if (reference && addToReferenceIndex(referenceIndex, reference, row, referenceOf) > 0) duplicated.add(reference);
      // Row by row: a row that throws (memory running out) leaves the counts true to checkedRows.
      checked = table.checkedRows = row + 1;
    }
    if (checked < rowCount) return false;
    for (const reference of duplicated) refreshDuplicates(table, reference);
    duplicatedCount = duplicated.size;
    duplicated = new Set();
    return true;
  };
  return {
    table,
    get checkedRows() {
      return checked;
    },
    get duplicatedReferences() {
      return checked === rowCount ? duplicatedCount : duplicated.size;
    },
    checkUntil,
  };
}

/** The review table of read rows, every row checked (beginReviewTable at once). */
export function createReviewTable(source: SourceRows, headerRow: number, mapping: ColumnMapping, options: ReviewTableOptions = {}): ReviewTable {
  const check = beginReviewTable(source, headerRow, mapping, options);
  check.checkUntil(Number.POSITIVE_INFINITY);
  return check.table;
}

interface CellChange {
  row: number;
  column: ColumnTarget;
  value: string;
}

/** Sets cells (undefined: back to the file's own) and checks their rows again; returns what each cell was before. */
function applyCells(table: ReviewTable, changes: readonly { row: number; column: number; value: string | undefined }[]): CellEdit[] {
  const rows = new Set<number>();
  const touched = new Set<string>();
  for (const change of changes) if (change.row >= 0 && change.row < table.counts.rows) rows.add(change.row);
  // Every row read before anything changes: a read that fails (a file moved on disk) leaves the table as it was.
  for (const row of rows) sourceRow(table, row);
  for (const row of rows) {
    if (isExcluded(table, row)) continue;
    const reference = table.references.get(row);
    if (reference) {
      removeFromReferenceIndex(table.referenceIndex, reference, row);
      touched.add(reference);
    }
  }
  const edits: CellEdit[] = [];
  for (const { row, column, value } of changes) {
    const cells = table.edits[column];
    if (!cells || !rows.has(row)) continue;
    edits.push({ row, column, previous: cells.get(row) });
    if (value === undefined) cells.delete(row);
    else cells.set(row, value);
  }
  const raw = new Array<string>(table.columns.length);
  const out = new Array<string>(table.columns.length);
  for (const row of rows) {
    revalidate(table, row, raw, out);
    const reference = table.references.get(row);
    if (reference && !isExcluded(table, row)) {
      addToReferenceIndex(table.referenceIndex, reference, row, referenceReader(table));
      touched.add(reference);
    } else setFlags(table, row, (table.flags[row] ?? 0) & ~ROW_DUPLICATE);
  }
  for (const reference of touched) refreshDuplicates(table, reference);
  table.version++;
  return edits;
}

function columnIndex(table: ReviewTable, column: ColumnTarget): number {
  const index = table.columns.indexOf(column);
  if (index < 0) throw new RangeError(`The review table has no column ${column}.`);
  return index;
}

/**
 * Sets cells as the user typed them; each row is normalized and validated again (auto-fixes
 * listed anew), duplicate references are recounted, and the whole change is one undo step.
 */
function setCells(table: ReviewTable, changes: readonly CellChange[]): void {
  if (changes.length === 0) return;
  const edits = applyCells(table, changes.map(({ row, column, value }) => ({ row, column: columnIndex(table, column), value })));
  if (edits.length) remember(table, { kind: 'cells', cells: edits });
}

export function setCell(table: ReviewTable, row: number, column: ColumnTarget, value: string): void {
  setCells(table, [{ row, column, value }]);
}

/** Bulk "set this column for these rows" (e.g. the rows of the current filter). */
export function setColumnValue(table: ReviewTable, rows: Iterable<number>, column: ColumnTarget, value: string): void {
  const changes: CellChange[] = [];
  for (const row of rows) changes.push({ row, column, value });
  setCells(table, changes);
}

function setExclusion(table: ReviewTable, rows: Iterable<number>, excluded: boolean, record: boolean): void {
  const changed: number[] = [];
  const touched = new Set<string>();
  for (const row of rows) {
    if (row < 0 || row >= table.counts.rows || isExcluded(table, row) === excluded) continue;
    changed.push(row);
    const old = table.flags[row] ?? 0;
    // An excluded row no longer clashes with anyone.
    setFlags(table, row, excluded ? (old | ROW_EXCLUDED) & ~ROW_DUPLICATE : old & ~ROW_EXCLUDED);
    const reference = table.references.get(row);
    if (!reference) continue;
    if (excluded) removeFromReferenceIndex(table.referenceIndex, reference, row);
    else addToReferenceIndex(table.referenceIndex, reference, row, referenceReader(table));
    touched.add(reference);
  }
  for (const reference of touched) refreshDuplicates(table, reference);
  if (changed.length === 0) return;
  table.version++;
  if (record) remember(table, { kind: 'exclusion', rows: changed, excluded });
}

/** Leaves rows out of the submission (they are listed as skipped); one undo step. */
export function excludeRows(table: ReviewTable, rows: Iterable<number>): void {
  setExclusion(table, rows, true, true);
}

export function restoreRows(table: ReviewTable, rows: Iterable<number>): void {
  setExclusion(table, rows, false, true);
}

export interface FindReplace {
  find: string;
  replace: string;
  /** Columns to search; all by default. */
  columns?: readonly ColumnTarget[];
  /** Rows to search (e.g. the filtered ones); all by default. */
  rows?: Iterable<number>;
  matchCase?: boolean;
  /** Replace only cells whose whole value matches. */
  wholeCell?: boolean;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces text in the shown (normalized) values; returns how many cells changed. One undo step. */
export function findAndReplace(table: ReviewTable, { find, replace, columns, rows, matchCase = false, wholeCell = false }: FindReplace): number {
  if (!find) return 0;
  const pattern = new RegExp(wholeCell ? `^${escapeRegExp(find)}$` : escapeRegExp(find), matchCase ? 'g' : 'gi');
  const columnIndexes = (columns ?? table.columns).map((column) => columnIndex(table, column));
  const changes: CellChange[] = [];
  const visit = (row: number) => {
    const { values } = readRow(table, row);
    for (const c of columnIndexes) {
      const value = values[c] ?? '';
      pattern.lastIndex = 0;
      if (!pattern.test(value)) continue;
      pattern.lastIndex = 0;
      const next = value.replace(pattern, () => replace);
      if (next !== value) changes.push({ row, column: table.columns[c] ?? 'name', value: next });
    }
  };
  if (rows) for (const row of rows) visit(row);
  else for (let row = 0; row < table.counts.rows; row++) visit(row);
  setCells(table, changes);
  return changes.length;
}

/**
 * Accepts the suggested fixes of these rows ("did you mean container?", "Maersk → MAEU", the
 * right check digit…), of one kind if code is given; returns how many cells changed. One undo step.
 */
export function acceptFixes(table: ReviewTable, rows: Iterable<number>, code?: IssueCode): number {
  const changes: CellChange[] = [];
  for (const row of rows) {
    const taken = new Set<ColumnTarget>();
    for (const issue of readRow(table, row).issues) {
      if (issue.fix === undefined || issue.level === 'auto_fix' || (code && issue.code !== code) || taken.has(issue.column)) continue;
      taken.add(issue.column);
      changes.push({ row, column: issue.column, value: issue.fix });
    }
  }
  setCells(table, changes);
  return changes.length;
}

/** Undoes the last change (edit, bulk set, find & replace, fixes, exclusion); false when there is none. */
export function undo(table: ReviewTable): boolean {
  const change = table.history.pop();
  if (!change) return false;
  if (change.kind === 'exclusion') setExclusion(table, change.rows, !change.excluded, false);
  else applyCells(table, change.cells.reverse().map(({ row, column, previous }) => ({ row, column, value: previous })));
  return true;
}

export type RowFilter = 'all' | 'errors' | 'warnings' | 'auto_fixed' | 'excluded' | 'ready';

/** Indexes of the rows a grid filter shows. Excluded rows appear under all and excluded only. */
export function rowsWhere(table: ReviewTable, filter: RowFilter): number[] {
  const rows: number[] = [];
  const { flags } = table;
  const bit = filter === 'errors' ? ROW_ERROR : filter === 'warnings' ? ROW_WARNING : filter === 'auto_fixed' ? ROW_AUTO_FIXED : 0;
  for (let row = 0; row < flags.length; row++) {
    const f = flags[row] ?? 0;
    const keep =
      filter === 'all' ||
      (filter === 'excluded' ? (f & ROW_EXCLUDED) !== 0 : (f & ROW_EXCLUDED) === 0 && (filter === 'ready' ? (f & ROW_ERROR) === 0 : (f & bit) !== 0));
    if (keep) rows.push(row);
  }
  return rows;
}

/** Issues of one cell, errors first, for the grid's cell marker and tooltip. */
export function cellIssues(table: ReviewTable, row: number, column: ColumnTarget): RowIssue[] {
  return worstFirst(readRow(table, row).issues.filter((issue) => issue.column === column));
}
