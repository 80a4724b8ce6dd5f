// Messages between the console and the import worker: one discriminated union each way, typed
// at both ends. The worker owns the file and its rows; the page asks for what it shows.
import type { ColumnMapping, ColumnTarget } from '../spreadsheet/column-mapping';
import type { TableReadResult } from '../spreadsheet/read-table';
import type { IssueCode, IssueLevel } from '../spreadsheet/row-issue';
import type { CsvChunk, SkippedRow } from '../spreadsheet/csv-output';
import type { ReviewCounts, RowFilter } from '../spreadsheet/review-table';
import type { RowNumbering } from '../spreadsheet/row-numbering';
import type { ForesightCounts, SentRows } from '../spreadsheet/row-foresight';

export interface ReadOptions {
  sheet?: string;
  /** Fingerprints of the remembered sets of headers: a workbook opens on a sheet holding one. */
  rememberedHeaders?: string[];
  encoding?: string;
  delimiter?: string;
}

/** What the page needs of a read file: never all rows, which stay in the worker. */
export interface TableSummary {
  fileName: string;
  kind: TableReadResult['kind'];
  sheets: TableReadResult['sheets'];
  sheet: string;
  encoding?: string;
  delimiter?: string;
  /** Non-empty rows read, header included. */
  rowCount: number;
  /** The first rows, for the header-row picker and column samples. */
  preview: string[][];
  previewRowNumbers: number[];
  /** What the file's 1-based numbers count, in the words people use: lines of a text file,
   * rows of a sheet. Every place that shows a row number names it with this word. */
  numbering: RowNumbering;
  /** The rows are fix & retry's, matched to their original numbers and the service's notes. */
  retried: boolean;
}

export type { RowNumbering };

/** What the service said about a row when it was sent before (fix & retry), one problem. */
export interface ServiceNote {
  level: 'error' | 'warning';
  /** The column it names (`target`), or null. */
  column: string | null;
  message: string;
}

/**
 * Rows handed back by fix & retry, read as a CSV file: data row i of it is row `rowNumbers[i]` of
 * the original file (numbered as `numbering`), and `notes[i]` is what the service said about it.
 */
export interface RetryRows {
  numbering: RowNumbering;
  rowNumbers: number[];
  notes: ServiceNote[][];
}

/** The rows to send by what they are foreseen to do at the service (the Ready step's counts). */
export type ForesightFilter = 'creates' | 'updates' | 'no_reference' | 'possible_duplicates';

/** The grid's filters: the review table's row filters a person picks ("ready" is the submit's), and the foresight's. */
export type ReviewFilter = Exclude<RowFilter, 'ready'> | ForesightFilter;

export type { ForesightCounts, SentRows };

/** Keys seen elsewhere, each with when it was last sent (epoch ms; 0 when not known). */
export interface SeenKeysUpdate {
  /** Rows this browser's past jobs sent. */
  sent?: SentRows[];
  references?: [string, number][];
  trackingNumbers?: [string, number][];
  /** The references and numbers are of shipments the service holds (its own list), not rows sent whose outcome is unknown. */
  confirmed?: boolean;
  /** The console server's answer to a team query (a foresight-keys query), as its bytes: read in the worker. */
  teamAnswer?: ArrayBuffer;
}

/** Keys the server is asked about, a page of the rows to send at a time. */
export const FORESIGHT_KEYS_PAGE = 5_000;

export interface CellIssueView {
  column: number;
  level: IssueLevel;
  code: IssueCode;
  message: string;
  fix?: string;
  original?: string;
}

/** One row as the grid shows it. */
export interface ReviewRowView {
  /** 0-based index of the row in the review table. */
  index: number;
  /** 1-based row (workbook) or line (CSV) in the file. */
  rowNumber: number;
  values: string[];
  issues: CellIssueView[];
  excluded: boolean;
  /** Fix & retry: what the service said about this row last time; its own checks are in `issues`. */
  serviceNotes?: ServiceNote[];
}

/** Every change answers with the new state; `version` tells the grid to drop cached rows. */
export interface ReviewState {
  version: number;
  /** Bumped when the filtered view's order changes (filter, bulk change): rows cached under
   * another viewVersion are other rows, not stale copies of these. */
  viewVersion: number;
  /** Rows checked so far, from the first: the rest of a large file is checked after the grid
   * shows its first rows, and the counts are whole once this is counts.rows ('review-checked'). */
  checkedRows: number;
  counts: ReviewCounts;
  filter: ReviewFilter;
  /** Rows in the current filter. */
  viewLength: number;
  canUndo: boolean;
  /** What the last change did, as a sentence ("Replaced 12 values."), for the live region. */
  note: string | null;
  /** What the rows to send will do at the service, as last foreseen; null before the Ready step asks. */
  foresight: ForesightCounts | null;
}

/** What would be sent; the CSV chunks themselves stay in the worker until they are submitted. */
export interface PreparedSubmission {
  headers: string[];
  /** Rows per chunk at most. */
  chunkSize: number;
  /** Rows in each chunk, in order. */
  chunkRows: number[];
  submittedRows: number;
  /** Rows left out with their reasons, the first SKIPPED_LISTED of them. */
  skipped: SkippedRow[];
  skippedTotal: number;
  /** The first lines of the first chunk, as sent. */
  previewCsv: string;
}

export const SKIPPED_LISTED = 1000;

/** Everything an import job needs to be created: every chunk and every skipped row with its reason. */
export interface SubmissionRows {
  headers: string[];
  chunks: CsvChunk[];
  skipped: SkippedRow[];
  /** Data rows read; = rows in the chunks + skipped.length. */
  rowsRead: number;
}

/**
 * Which submission a part belongs to: the worker's serial number for it and the review table's
 * version it was computed from. A part of another submission, or of a table edited since, is
 * refused, so a job is never made of rows from two states of the table.
 */
export interface SubmissionKey {
  submission: number;
  version: number;
}

/**
 * The first answer of a submission: everything but its chunks, which the page then asks for one
 * by one (`submission-chunk`), so no one message grows with the file (one message of 100,000 rows
 * was one long task on the page to deserialise).
 */
export interface SubmissionStart extends SubmissionKey {
  headers: string[];
  skipped: SkippedRow[];
  /** Data rows read; = rows in the chunks + skipped.length. */
  rowsRead: number;
  chunkCount: number;
}

export type ReviewCommand =
  | { type: 'set-filter'; filter: ReviewFilter }
  | { type: 'edit'; row: number; column: number; value: string }
  | { type: 'exclude'; rows: number[] | 'view'; excluded: boolean }
  | { type: 'set-column'; column: number; value: string }
  | { type: 'replace'; column: number | null; find: string; replace: string }
  | { type: 'undo' };

/**
 * Every request the worker answers, by kind: what the page sends (`ImportRequests`) and what it
 * gets back (`ImportAnswers`). The two maps pair each request with its answer by type, so a
 * caller names only the kind and a wrong pair fails to compile.
 */
export interface ImportRequests {
  /** `retry`: the file is fix & retry's rows; they keep their original numbers and the service's notes. */
  read: { file: File; options: ReadOptions; retry?: RetryRows };
  reread: { options: ReadOptions };
  'build-review': { headerRow: number; mapping: ColumnMapping };
  /** Answers once every row of the review is checked; progress (every 250 ms at most): the share of rows checked. */
  'review-checked': Record<string, never>;
  /**
   * The page is about to render the review (Continue): the check of its rows waits up to `forMs`
   * before its next block, so that on two cores the render has one to itself; 0: go on now.
   */
  'hold-check': { forMs: number };
  review: { command: ReviewCommand };
  /** Rows [from, to) of the current filtered view. */
  'get-rows': { from: number; to: number };
  /** One row by its table index, wherever the filter puts it. */
  'get-row': { row: number };
  /** The next (or previous) error cell of the view after view position `from`, data column `column`
   * (−1: before the first), wrapping around. */
  'find-error': { from: number; column: number; direction: 1 | -1 };
  /** Counts the rows to send in chunks of `chunkSize` (the job's setting, jobs/job-settings.ts). */
  prepare: { chunkSize: number };
  /** Cuts the rows to send into chunks and keeps them until each is asked for (`submission-chunk`). */
  'submission-start': { chunkSize: number };
  /** Chunk `index` (0-based) of the submission `key` names; each is handed over once, then dropped. */
  'submission-chunk': { key: SubmissionKey; index: number };
  /** The SHA-256 (hex) of the file last read (`read`, computed as it was read): the job keeps it to
   * tell two drops of one file from two files of one name. `fileName`: the file the page means. */
  'source-hash': { fileName: string };
  /** The distinct references of the rows to send, and the tracking numbers of those without one, page `page` (FORESIGHT_KEYS_PAGE rows a page). */
  'foresight-keys': { page: number };
  /**
   * Adds keys seen (none: the ones kept) and foresees every row to send again. `reset`: forget the
   * keys kept first. `more`: more keys follow at once: keep these, foresee with the last.
   */
  foresee: { add: SeenKeysUpdate; reset?: boolean; more?: boolean };
  /** The import template, written here so SheetJS and papaparse stay off the main thread. */
  template: { customFieldSlugs: string[]; format: 'csv' | 'xlsx' };
}

export interface ImportAnswers {
  read: { summary: TableSummary };
  reread: { summary: TableSummary };
  /** `firstRows`: the view's first FIRST_ROWS rows, so the grid shows them without asking. */
  'build-review': { columns: ColumnTarget[]; state: ReviewState; firstRows: ReviewRowView[] };
  /** `firstRows`: the view's first rows again, as they are once duplicates are known. */
  'review-checked': { state: ReviewState; firstRows: ReviewRowView[] };
  'hold-check': Record<string, never>;
  /** `row`: after an edit, the edited row as it is now, so the grid shows it without a refetch. */
  review: { state: ReviewState; row?: ReviewRowView };
  'get-rows': { from: number; rows: ReviewRowView[]; version: number };
  'get-row': { row: ReviewRowView; version: number };
  'find-error': { found: { position: number; column: number } | null };
  prepare: { submission: PreparedSubmission };
  'submission-start': { start: SubmissionStart };
  'submission-chunk': { key: SubmissionKey; index: number; chunk: CsvChunk };
  'source-hash': { sha256: string };
  /** `query`: the page's keys as a TeamSeenQuery in JSON, for the console server (null when the page has none). */
  'foresight-keys': { query: Blob | null; more: boolean };
  foresee: { state: ReviewState };
  template: { bytes: Uint8Array };
}

export type ImportRequestKind = keyof ImportRequests;

export type WorkerRequest = { [K in ImportRequestKind]: { kind: K; id: number } & ImportRequests[K] }[ImportRequestKind];

export type WorkerResponse =
  | { type: 'progress'; id: number; fraction: number }
  | { [K in ImportRequestKind]: { type: 'done'; kind: K; id: number; answer: ImportAnswers[K] } }[ImportRequestKind]
  | { type: 'failed'; id: number; message: string };

export const PREVIEW_ROWS = 30;
/** The rows a built review answers with: a page of the grid (use-row-window asks 100 at a time). */
export const FIRST_ROWS = 100;

/** The rows a review was built with: the first page of its view at `version`. */
export interface FirstRows {
  version: number;
  rows: ReviewRowView[];
}
