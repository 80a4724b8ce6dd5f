// The quick-add list as plain data: rows of the JSON list endpoint's fields (spec §2.1), checked
// by the same review pipeline as a dropped file (src/spreadsheet: normalization, auto-fixes,
// carriers, check digits, duplicate references) plus what the list endpoint requires on top
// (every field but name, per the contract's shipmentRequestSchema). A few hundred rows, so it
// runs on the main thread and is rebuilt from the typed text on every change.
import Papa from 'papaparse';
import { type ShipmentRequest, shipmentRequestSchema } from '../../contract/shipment-request';
import { type ColumnTarget, suggestColumnMapping } from '../../spreadsheet/column-mapping';
import { createReviewTable, readRow } from '../../spreadsheet/review-table';
import type { IssueLevel } from '../../spreadsheet/row-issue';
import { formatCount } from '../../components/plural';

export const QUICK_ADD_COLUMNS = ['reference', 'tracking_number', 'tracking_type', 'carrier_scac', 'name'] as const;
export type QuickAddColumn = (typeof QUICK_ADD_COLUMNS)[number];

/** One row as typed: a cell per QUICK_ADD_COLUMNS entry, in that order. */
export type QuickAddRow = readonly string[];

/** More than this is a file's job: the grid stays quick to type in and to check on every key. */
export const MAX_QUICK_ADD_ROWS = 500;

/** The file column each field is checked as (the review pipeline speaks the file's headers). */
const FILE_COLUMN: Record<QuickAddColumn, ColumnTarget> = {
  reference: 'reference',
  tracking_number: 'tracking_number',
  tracking_type: 'tracking_type',
  carrier_scac: 'carrier',
  name: 'name',
};
const FIELD_OF = new Map<ColumnTarget, QuickAddColumn>(QUICK_ADD_COLUMNS.map((field) => [FILE_COLUMN[field], field]));

export interface CellIssue {
  level: IssueLevel;
  /** A sentence naming the field and the reason. */
  message: string;
  /** A value the user can accept with one click. */
  fix?: string;
}

export interface CheckedRow {
  /** Every cell empty: not a shipment, neither checked nor sent. */
  blank: boolean;
  /** The values as they would be sent (trimmed, re-cased, synonyms resolved). */
  values: string[];
  issues: Partial<Record<QuickAddColumn, CellIssue[]>>;
  hasError: boolean;
}

export interface QuickAddCheck {
  rows: CheckedRow[];
  /** Rows that are not blank. */
  filled: number;
  errorRows: number;
  warningRows: number;
}

export function emptyRow(): string[] {
  return QUICK_ADD_COLUMNS.map(() => '');
}

function isBlank(row: QuickAddRow): boolean {
  return row.every((cell) => cell.trim() === '');
}

/** "carrier: …" → "carrier_scac: …": the list endpoint's field name, which is what the user sees. */
function inFieldWords(field: QuickAddColumn, message: string): string {
  const column = FILE_COLUMN[field];
  return column !== field && message.startsWith(`${column}:`) ? `${field}:${message.slice(column.length + 1)}` : message;
}

const MAPPING = suggestColumnMapping(QUICK_ADD_COLUMNS.map((field) => FILE_COLUMN[field]));

export function checkQuickAdd(rows: readonly QuickAddRow[]): QuickAddCheck {
  const filledIndexes = rows.flatMap((row, index) => (isBlank(row) ? [] : [index]));
  const table = createReviewTable(
    { rows: [QUICK_ADD_COLUMNS.map((f) => FILE_COLUMN[f]), ...filledIndexes.map((index) => rows[index] ?? emptyRow())], rowNumbers: [0, ...filledIndexes.map((index) => index + 1)] },
    0,
    MAPPING,
  );
  const valueColumn = QUICK_ADD_COLUMNS.map((field) => table.columns.indexOf(FILE_COLUMN[field]));

  const checked: CheckedRow[] = rows.map((row) => ({ blank: isBlank(row), values: [...row], issues: {}, hasError: false }));
  let errorRows = 0;
  let warningRows = 0;
  filledIndexes.forEach((index, tableRow) => {
    const row = checked[index]!;
    const { values, issues } = readRow(table, tableRow);
    row.values = valueColumn.map((column) => values[column] ?? '');
    const add = (field: QuickAddColumn, issue: CellIssue) => (row.issues[field] ??= []).push(issue);
    for (const issue of issues) {
      const field = FIELD_OF.get(issue.column);
      if (!field) continue;
      add(field, { level: issue.level, message: inFieldWords(field, issue.message), ...(issue.fix === undefined ? {} : { fix: issue.fix }) });
    }
    for (const { field, ...issue } of listEndpointIssues(row)) add(field, issue);
    row.hasError = Object.values(row.issues).some((issues) => issues.some((issue) => issue.level === 'error'));
    if (row.hasError) errorRows++;
    else if (Object.values(row.issues).some((issues) => issues.some((issue) => issue.level === 'warning'))) warningRows++;
  });
  return { rows: checked, filled: filledIndexes.length, errorRows, warningRows };
}

/**
 * What the JSON list endpoint asks beyond a file row: a reference and a carrier on every entry
 * (the contract's schema), reported on fields the file rules left without an error.
 */
function listEndpointIssues(row: CheckedRow): (CellIssue & { field: QuickAddColumn })[] {
  const issues: (CellIssue & { field: QuickAddColumn })[] = [];
  const hasError = (field: QuickAddColumn) => row.issues[field]?.some((issue) => issue.level === 'error') ?? false;
  const value = (field: QuickAddColumn) => row.values[QUICK_ADD_COLUMNS.indexOf(field)] ?? '';
  if (value('reference') === '' && !hasError('reference')) {
    issues.push({ field: 'reference', level: 'error', message: 'reference: empty; the list import needs your own reference for every shipment.' });
  }
  // A B/L or booking gets its carrier from the number's prefix (an auto-fix of the file rules);
  // a container needs one said, or AUTO.
  if (value('carrier_scac') === '' && !hasError('carrier_scac')) {
    issues.push({ field: 'carrier_scac', level: 'error', message: 'carrier_scac: empty; the list import needs a SCAC, or AUTO for a container.' });
  }
  const parsed = shipmentRequestSchema.safeParse(toRequest(row.values));
  if (!parsed.success) {
    for (const problem of parsed.error.issues) {
      const field = QUICK_ADD_COLUMNS.find((f) => f === problem.path[0]);
      if (field && !hasError(field) && !issues.some((issue) => issue.field === field)) {
        issues.push({ field, level: 'error', message: `${field}: ${problem.message}.` });
      }
    }
  }
  return issues;
}

function toRequest(values: readonly string[]): ShipmentRequest {
  const [reference = '', tracking_number = '', tracking_type = '', carrier_scac = '', name = ''] = values;
  return {
    reference,
    tracking_number,
    tracking_type: tracking_type as ShipmentRequest['tracking_type'],
    carrier_scac,
    ...(name ? { name } : {}),
  };
}

/** The entries to send and their grid row numbers; only for a check without errors. */
export function toRequests(check: QuickAddCheck): { requests: ShipmentRequest[]; rowNumbers: number[] } {
  if (check.errorRows > 0) throw new Error('Rows with errors cannot be sent.');
  const requests: ShipmentRequest[] = [];
  const rowNumbers: number[] = [];
  check.rows.forEach((row, index) => {
    if (row.blank) return;
    requests.push(toRequest(row.values));
    rowNumbers.push(index + 1);
  });
  return { requests, rowNumbers };
}

export interface PasteResult {
  rows: string[][];
  /** What happened, when the user should know (a header read, rows or columns left out). */
  notes: string[];
}

/**
 * Puts text pasted from a spreadsheet (tab-separated lines, cells with line breaks quoted) into
 * the grid at a cell. A first line that is a header ("Ref", "Container No", "carrier_scac"…)
 * places each column under its field wherever it was in the source; otherwise the cells go
 * right and down from the cell, as in a spreadsheet. Never beyond MAX_QUICK_ADD_ROWS.
 */
export function pasteRows(current: readonly QuickAddRow[], at: { row: number; column: number }, text: string): PasteResult {
  const parsed = Papa.parse<string[]>(text.replace(/\r?\n$/, ''), { delimiter: '\t', skipEmptyLines: 'greedy' });
  let lines = parsed.data;
  const notes: string[] = [];
  if (lines.length === 0) return { rows: current.map((row) => [...row]), notes };

  let placeColumn: (sourceColumn: number) => number | null = (c) => (at.column + c < QUICK_ADD_COLUMNS.length ? at.column + c : null);
  const header = headerFields(lines[0] ?? []);
  if (header) {
    lines = lines.slice(1);
    placeColumn = (c) => header[c] ?? null;
    const ignored = (parsed.data[0] ?? []).filter((name, c) => name.trim() !== '' && header[c] === null);
    notes.push(`Read the first line as a header${ignored.length ? `; left out ${ignored.map((name) => `“${name.trim()}”`).join(', ')}` : ''}.`);
  } else {
    const widest = Math.max(...lines.map((line) => line.length));
    const spare = widest - (QUICK_ADD_COLUMNS.length - at.column);
    if (spare > 0) notes.push(`Left out ${spare === 1 ? 'the last column' : `the last ${spare} columns`} of the pasted cells: the grid ends at ${QUICK_ADD_COLUMNS.at(-1)}.`);
  }

  const rows = current.map((row) => [...row]);
  const room = MAX_QUICK_ADD_ROWS - at.row;
  if (lines.length > room) {
    notes.push(`Kept ${formatCount(room)} of the ${formatCount(lines.length)} pasted rows: quick add takes up to ${MAX_QUICK_ADD_ROWS} shipments. Import a file for more.`);
    lines = lines.slice(0, Math.max(0, room));
  }
  lines.forEach((line, i) => {
    // A row under a header is a whole shipment: it replaces what was there.
    const target = header ? (rows[at.row + i] = emptyRow()) : (rows[at.row + i] ??= emptyRow());
    line.forEach((cell, c) => {
      const column = placeColumn(c);
      if (column !== null) target[column] = cell;
    });
  });
  return { rows, notes };
}

/** The grid column of each source column when the line is a header row, else null. */
function headerFields(line: readonly string[]): (number | null)[] | null {
  const names = line.map((name) => name.trim());
  if (names.filter(Boolean).length < 2) return null;
  const fields = suggestColumnMapping(names).map((entry) => {
    const field = entry.target === null ? undefined : FIELD_OF.get(entry.target);
    return field === undefined ? null : QUICK_ADD_COLUMNS.indexOf(field);
  });
  // Most named cells are known headers, two at least: a data row has one such word at most
  // ("container" is also a name of the tracking_number column) among numbers and references.
  const known = fields.filter((field) => field !== null).length;
  return known >= 2 && known * 2 > names.filter(Boolean).length ? fields : null;
}
