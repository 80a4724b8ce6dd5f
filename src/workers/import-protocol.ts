// Messages between the console and the import worker: one discriminated union each way, typed
// at both ends. The worker owns the file and its rows; the page asks for what it shows.
import type { ColumnMapping, ColumnTarget } from '../spreadsheet/column-mapping';
import type { TableReadResult } from '../spreadsheet/read-table';
import type { IssueCode, IssueLevel } from '../spreadsheet/row-issue';

export interface ReadOptions {
  sheet?: string;
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
}

export type ReviewFilter = 'all' | 'errors' | 'warnings' | 'fixed' | 'excluded';

export interface ReviewCounts {
  /** Data rows read (header excluded). */
  rows: number;
  /** Rows with at least one error, not excluded. */
  errors: number;
  /** Rows with at least one warning, not excluded. */
  warnings: number;
  /** Rows with at least one auto-fix. */
  fixed: number;
  excluded: number;
  /** Rows that would be submitted now: not excluded, no error. */
  ready: number;
}

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
}

/** Every change answers with the new state; `version` tells the grid to drop cached rows. */
export interface ReviewState {
  version: number;
  /** Bumped when the filtered view's order changes (filter, bulk change): rows cached under
   * another viewVersion are other rows, not stale copies of these. */
  viewVersion: number;
  counts: ReviewCounts;
  filter: ReviewFilter;
  /** Rows in the current filter. */
  viewLength: number;
  canUndo: boolean;
  /** What the last change did, as a sentence ("Replaced 12 values."), for the live region. */
  note: string | null;
}

export interface SkippedRow {
  rowNumber: number;
  reason: string;
}

/** What would be sent; the CSV chunks themselves stay in the worker until they are submitted. */
export interface PreparedSubmission {
  headers: string[];
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

/** One chunk to send: its CSV as sent and the file row number of each of its rows. */
export interface SubmissionChunk {
  csv: string;
  rowNumbers: number[];
  /** Rows with an empty reference (a resend of a lost request could create them twice). */
  withoutReference: number;
}

/** Everything an import job needs to be created: every chunk and every skipped row with its reason. */
export interface SubmissionRows {
  headers: string[];
  chunks: SubmissionChunk[];
  skipped: SkippedRow[];
  /** Data rows read; = rows in the chunks + skipped.length. */
  rowsRead: number;
}

export type ReviewCommand =
  | { type: 'set-filter'; filter: ReviewFilter }
  | { type: 'edit'; row: number; column: number; value: string }
  | { type: 'exclude'; rows: number[] | 'view'; excluded: boolean }
  | { type: 'set-column'; column: number; value: string }
  | { type: 'replace'; column: number | null; find: string; replace: string }
  | { type: 'undo' };

export type WorkerRequest =
  | { type: 'read'; id: number; file: File; options: ReadOptions }
  | { type: 'reread'; id: number; options: ReadOptions }
  | { type: 'build-review'; id: number; headerRow: number; mapping: ColumnMapping }
  | { type: 'review'; id: number; command: ReviewCommand }
  | { type: 'get-rows'; id: number; from: number; to: number }
  /** One row by its table index, wherever the filter puts it. */
  | { type: 'get-row'; id: number; row: number }
  | { type: 'prepare'; id: number; chunkSize: number }
  /** The chunks themselves, to create the import job that sends them. */
  | { type: 'submission-rows'; id: number; chunkSize: number }
  /** The XLSX import template: SheetJS stays off the main thread. */
  | { type: 'template'; id: number; customFieldSlugs: string[] };

export type WorkerResponse =
  | { type: 'progress'; id: number; fraction: number }
  | { type: 'read-done'; id: number; summary: TableSummary }
  | { type: 'review-ready'; id: number; columns: ColumnTarget[]; state: ReviewState }
  /** `row`: after an edit, the edited row as it is now, so the grid shows it without a refetch. */
  | { type: 'review-state'; id: number; state: ReviewState; row?: ReviewRowView }
  | { type: 'rows'; id: number; from: number; rows: ReviewRowView[]; version: number }
  | { type: 'prepared'; id: number; submission: PreparedSubmission }
  | { type: 'submission-rows-done'; id: number; rows: SubmissionRows }
  | { type: 'template-done'; id: number; bytes: Uint8Array }
  | { type: 'failed'; id: number; message: string };

export const PREVIEW_ROWS = 30;
