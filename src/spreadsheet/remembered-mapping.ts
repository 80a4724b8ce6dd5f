// Remembered mappings: a mapping made by hand is kept under a fingerprint of the file's set of
// headers, and the next file with the same headers is mapped from it before any synonym. Pure:
// the stores (browser, console server) keep the records; this decides what they mean.
import type { RememberedMapping } from '../contract/remembered-mapping';
import {
  type ColumnMapping,
  type ColumnMappingEntry,
  type ColumnMappingOptions,
  type ColumnTarget,
  columnLetter,
  customFieldWarning,
  suggestColumnMapping,
} from './column-mapping';

/** Rows searched for a header row whose set of headers is remembered (as header detection scans). */
const MEMORY_SCAN_ROWS = 20;
/** A remembered mapping whose headers are not the file's applies when they share this much (shared / all). */
const NEAR_MATCH = 0.75;

/** "Carrier  SCAC " and "carrier scac" are one header: case and spacing do not count. */
function normalizeHeader(header: string): string {
  return header.toLowerCase().replace(/\s+/g, '');
}

/** The file's set of headers: normalized, without empty ones or repeats, sorted. */
function headerSet(headers: readonly string[]): string[] {
  return [...new Set(headers.map(normalizeHeader).filter((header) => header !== ''))].sort();
}

/** 16 hex digits naming a set of headers: order, case, spacing and repeats do not change it. */
export function headerFingerprint(headers: readonly string[]): string {
  // Two 32-bit FNV-1a hashes with different offsets: 64 bits, enough for a workspace's few hundred files.
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (const header of headerSet(headers)) {
    for (const char of `${header}\n`) {
      const code = char.codePointAt(0) ?? 0;
      a = Math.imul(a ^ code, 0x01000193);
      b = Math.imul(b ^ code, 0x01000193) ^ (b >>> 15);
    }
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/**
 * The workbook's sheet to open when no sheet is asked for: the first whose first rows hold a
 * remembered set of headers (by fingerprint), or null to pick by the rules.
 */
export function rememberedSheet(sheets: readonly { name: string; head: readonly (readonly string[])[] }[], fingerprints: readonly string[] | undefined): string | null {
  if (!fingerprints?.length) return null;
  const remembered = new Set(fingerprints);
  const found = sheets.find((sheet) => sheet.head.slice(0, MEMORY_SCAN_ROWS).some((row) => headerSet(row).length > 0 && remembered.has(headerFingerprint(row))));
  return found?.name ?? null;
}

/** Where a memory was found: its header row, and whether the headers are the same set or only close. */
export interface RememberedMatch {
  memory: RememberedMapping;
  headerRow: number;
  sameHeaders: boolean;
}

/** The newest record per fingerprint (of this browser's and the workspace's), newest first. */
export function newestMappings(memories: readonly RememberedMapping[]): RememberedMapping[] {
  const newest = new Map<string, RememberedMapping>();
  for (const memory of memories) {
    const kept = newest.get(memory.fingerprint);
    if (!kept || memory.savedAt > kept.savedAt) newest.set(memory.fingerprint, memory);
  }
  return [...newest.values()].sort((x, y) => y.savedAt - x.savedAt);
}

/**
 * The remembered mapping for a file's first rows: a row among the first ones whose set of headers
 * is remembered (the remembered header row first), else, for `headerRow`, the newest memory that
 * shares at least three quarters of the headers with it. Null when none applies.
 */
export function findRememberedMapping(
  rows: readonly (readonly string[])[],
  memories: readonly RememberedMapping[],
  headerRow: number,
): RememberedMatch | null {
  if (memories.length === 0) return null;
  const ordered = newestMappings(memories);
  const byFingerprint = new Map<string, RememberedMapping>();
  for (const memory of ordered) if (!byFingerprint.has(memory.fingerprint)) byFingerprint.set(memory.fingerprint, memory);
  const found: RememberedMatch[] = [];
  rows.slice(0, MEMORY_SCAN_ROWS).forEach((row, index) => {
    const memory = headerSet(row).length > 0 ? byFingerprint.get(headerFingerprint(row)) : undefined;
    if (memory) found.push({ memory, headerRow: index, sameHeaders: true });
  });
  const same = found.find((match) => match.memory.headerRow === match.headerRow) ?? found[0];
  if (same) return same;

  const header = new Set(headerSet(rows[headerRow] ?? []));
  if (header.size === 0) return null;
  let best: RememberedMatch | null = null;
  let bestShare = NEAR_MATCH;
  for (const memory of ordered) {
    const remembered = headerSet(memory.columns.map((column) => column.header));
    const shared = remembered.filter((name) => header.has(name)).length;
    const share = shared / (header.size + remembered.length - shared);
    if (share >= bestShare && (best === null || share > bestShare)) {
      best = { memory, headerRow, sameHeaders: false };
      bestShare = share;
    }
  }
  return best;
}

const listFormat = (items: readonly string[]) =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** "12 Nov", or "12 Nov 2025" outside the current year. */
function shortDate(ms: number, now: number): string {
  const date = new Date(ms);
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', ...(sameYear ? {} : { year: 'numeric' }) });
}

/** "as mapped for weekly-46.csv on 12 Nov, by Ana" — where a remembered choice comes from. */
export function describeMemory(memory: RememberedMapping, now = Date.now()): string {
  const by = memory.savedBy ? `, by ${memory.savedBy}` : '';
  return `as mapped for ${memory.fileName} on ${shortDate(memory.savedAt, now)}${by}`;
}

/** A remembered column with a target that the file does not have. */
export interface MissingRememberedColumn {
  header: string;
  target: ColumnTarget;
}

export interface AppliedMemory {
  mapping: ColumnMapping;
  /** Remembered columns the file lacks, with where they went. */
  missing: MissingRememberedColumn[];
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Maps a header row from a remembered mapping, then the rules for what the memory does not cover.
 * Precedence: a remembered choice comes before any suggestion or synonym. Where it disagrees with
 * an exact header match (the header is the service's own name for another target, or the memory
 * ignored it), the remembered choice is applied — it was made by hand for these headers — and the
 * column says so in its warning, naming the header's own target, so the person can take it back.
 */
export function applyRememberedMapping(
  header: readonly string[],
  memory: RememberedMapping,
  options: ColumnMappingOptions & { now?: number } = {},
): AppliedMemory {
  const rules = suggestColumnMapping(header, options);
  const source = describeMemory(memory, options.now);
  const remembered = new Map<string, ColumnTarget | null>();
  for (const column of memory.columns) {
    const key = normalizeHeader(column.header);
    if (key !== '' && !remembered.has(key)) remembered.set(key, column.target as ColumnTarget | null);
  }

  const claimed = new Map<ColumnTarget, number>();
  const decided = new Map<number, ColumnMappingEntry>();
  for (const entry of rules) {
    const key = normalizeHeader(entry.header);
    if (!remembered.has(key)) continue;
    const target = remembered.get(key) ?? null;
    // Where the memory and the rules agree on an exact name, or on leaving a column out, nothing changes.
    if ((target === entry.target && entry.match === 'exact') || (target === null && entry.target === null)) {
      decided.set(entry.column, entry);
      if (target !== null) claimed.set(target, entry.column);
      continue;
    }
    const disagrees =
      entry.match === 'exact' && entry.target !== null
        ? `“${entry.header}” is the service's own name for ${entry.target}; the mapping remembered from ${memory.fileName} ${target === null ? 'ignores it' : `imports it as ${target}`}. Choose ${entry.target} to import it as its header says.`
        : null;
    if (target !== null && claimed.has(target)) {
      const reason = `${target} is already mapped from column ${columnLetter(claimed.get(target) ?? 0)}.`;
      decided.set(entry.column, { ...entry, target: null, match: 'duplicate', reason, warning: disagrees });
      continue;
    }
    if (target !== null) claimed.set(target, entry.column);
    decided.set(entry.column, {
      ...entry,
      target,
      match: target === null ? 'ignored' : 'remembered',
      reason: target === null ? `Ignored, ${source}.` : `${capitalized(source)}.`,
      warning: disagrees ?? customFieldWarning(target, options),
    });
  }

  const mapping = rules.map((entry): ColumnMappingEntry => {
    const fromMemory = decided.get(entry.column);
    if (fromMemory) return fromMemory;
    const owner = entry.target === null ? undefined : claimed.get(entry.target);
    if (owner === undefined || owner === entry.column) return entry;
    const reason = `${entry.target} is mapped from column ${columnLetter(owner)}, ${source}.`;
    const warning = entry.match === 'exact' ? `“${entry.header}” is the service's own name for ${entry.target}; choose it here to import this column instead.` : null;
    return { ...entry, target: null, match: 'duplicate', reason, warning };
  });

  const present = new Set(headerSet(header));
  const missing = memory.columns.flatMap((column): MissingRememberedColumn[] =>
    column.target !== null && !present.has(normalizeHeader(column.header)) ? [{ header: column.header, target: column.target as ColumnTarget }] : [],
  );
  return { mapping, missing };
}

/** "Operator (carrier) and Cargo (cf_cargo), remembered from weekly-46.csv, are not in this file." */
export function describeMissingColumns(missing: readonly MissingRememberedColumn[], memory: RememberedMapping): string | null {
  if (missing.length === 0) return null;
  const names = listFormat(missing.map((column) => `“${column.header}” (${column.target})`));
  return `${names}, remembered from ${memory.fileName}, ${missing.length === 1 ? 'is' : 'are'} not in this file.`;
}

export interface MappingToRemember {
  header: readonly string[];
  mapping: ColumnMapping;
  headerRow: number;
  /** The header row the rules alone would pick. */
  detectedHeaderRow: number;
  fileName: string;
  sheet: string | null;
  savedAt: number;
  savedBy: string | null;
}

/**
 * The record to remember for a sent file, or null when nothing in its mapping was decided by hand
 * (every column as the rules map it, the detected header row): the rules map that file again the
 * same way, so memory would add nothing.
 */
export function mappingToRemember({ header, mapping, headerRow, detectedHeaderRow, fileName, sheet, savedAt, savedBy }: MappingToRemember): RememberedMapping | null {
  const byHand = mapping.some((entry) => entry.match === 'chosen' || entry.match === 'ignored' || entry.match === 'remembered');
  if (!byHand && headerRow === detectedHeaderRow) return null;
  if (headerSet(header).length === 0) return null;
  return {
    fingerprint: headerFingerprint(header),
    fileName,
    sheet,
    headerRow,
    columns: mapping.map((entry) => ({ header: header[entry.column] ?? entry.header, target: entry.target })),
    savedAt,
    savedBy,
  };
}
