import { REQUIRED_FILE_HEADERS } from '../contract/import-file';
import { headerMatcher } from './column-mapping';
import type { ColumnTarget, HeaderMatcher } from './column-mapping';

/** Rows looked at for the header: title blocks and notes above a header are rarely longer. */
const HEADER_SCAN_ROWS = 20;
/** Cells looked at in each row: the spec's columns are not found past the first few hundred. */
const HEADER_SCAN_CELLS = 200;

/**
 * How much a row looks like the spec's header: exact names count most, suggestions less,
 * each target once; the required targets add a bonus. 0 when nothing matches.
 */
function headerRowScore(row: readonly string[], match: HeaderMatcher): number {
  const seen = new Map<ColumnTarget, number>();
  const end = Math.min(row.length, HEADER_SCAN_CELLS);
  for (let at = 0; at < end; at++) {
    const cell = row[at] ?? '';
    if (cell.length > 100) continue;
    const found = match(cell);
    if (found && (seen.get(found.target) ?? 0) < found.strength) seen.set(found.target, found.strength);
  }
  let score = 0;
  for (const [target, strength] of seen) {
    score += strength;
    if ((REQUIRED_FILE_HEADERS as readonly string[]).includes(target)) score += 4;
  }
  return score;
}

/**
 * Index (into rows) of the header row among the first ones: the row whose names match the spec's
 * best, never a row of data (one holding an identifier, whatever synonym another of its cells
 * happens to be); when no name is known, the first row of distinct text cells above a row of
 * identifiers; else 0, so a file of unknown columns still has its first row as the header.
 */
export function detectHeaderRow(rows: readonly (readonly string[])[], customFieldSlugs?: readonly string[]): number {
  const named = bestHeaderRow(rows, headerMatcher(customFieldSlugs));
  return named.score > 0 ? named.index : headerByShape(rows);
}

/**
 * A value that names one shipment rather than a column: a container number, a B/L, a reference —
 * letters and at least three digits in one word. Column names are words ("Container No", "ETA").
 */
export function isIdentifierLike(cell: string): boolean {
  const value = cell.trim();
  if (value.length < 5 || value.length > 40 || /\s/.test(value)) return false;
  const digits = value.replace(/\D/g, '').length;
  return digits >= 3 && /[A-Za-z]/.test(value);
}

const isDataRow = (row: readonly string[]) => row.slice(0, HEADER_SCAN_CELLS).some(isIdentifierLike);

/** Text a person would write as a column name: no digits-only value, no date, no identifier. */
const isNameLike = (cell: string) => /[A-Za-z]/.test(cell) && !isIdentifierLike(cell) && cell.length <= 100;

function headerByShape(rows: readonly (readonly string[])[]): number {
  const end = Math.min(rows.length - 1, HEADER_SCAN_ROWS);
  for (let index = 0; index < end; index++) {
    const cells = (rows[index] ?? []).slice(0, HEADER_SCAN_CELLS).map((cell) => cell.trim()).filter((cell) => cell !== '');
    const distinct = new Set(cells.map((cell) => cell.toLowerCase())).size === cells.length;
    if (cells.length >= 2 && distinct && cells.every(isNameLike) && isDataRow(rows[index + 1] ?? [])) return index;
  }
  return 0;
}
function bestHeaderRow(rows: readonly (readonly string[])[], match: HeaderMatcher): { index: number; score: number } {
  let best = 0;
  let bestScore = 0;
  const end = Math.min(rows.length, HEADER_SCAN_ROWS);
  for (let index = 0; index < end; index++) {
    const row = rows[index] ?? [];
    if (isDataRow(row)) continue;
    const score = headerRowScore(row, match);
    if (score > bestScore) [best, bestScore] = [index, score];
  }
  return { index: best, score: bestScore };
}

export interface SheetCandidate {
  name: string;
  rowCount: number;
  /** The sheet's first non-empty rows. */
  head: readonly (readonly string[])[];
}

/**
 * The sheet to pre-select in a workbook: the one whose best header row matches the spec best;
 * among equals, the one with more rows. A sheet of instructions, however early, scores low
 * because its lines are sentences, not column names. Falls back to the first non-empty sheet.
 */
export function pickSheet(sheets: readonly SheetCandidate[], customFieldSlugs?: readonly string[]): string {
  const match = headerMatcher(customFieldSlugs);
  let best: SheetCandidate | undefined;
  let bestScore = 0;
  for (const sheet of sheets) {
    if (sheet.rowCount === 0) continue;
    const { score } = bestHeaderRow(sheet.head, match);
    if (score > bestScore || (score === bestScore && score > 0 && best && sheet.rowCount > best.rowCount)) {
      [best, bestScore] = [sheet, score];
    }
  }
  return (best ?? sheets.find((sheet) => sheet.rowCount > 0) ?? sheets[0])?.name ?? '';
}
