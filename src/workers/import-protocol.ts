// Messages between the console and the import worker: one discriminated union each way, typed
// at both ends. The worker owns the file and its rows; the page asks for what it shows.
import type { TableReadResult } from '../spreadsheet/read-table';

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

export type WorkerRequest =
  | { type: 'read'; id: number; file: File; options: ReadOptions }
  | { type: 'reread'; id: number; options: ReadOptions };

export type WorkerResponse =
  | { type: 'progress'; id: number; fraction: number }
  | { type: 'read-done'; id: number; summary: TableSummary }
  | { type: 'failed'; id: number; message: string };

export const PREVIEW_ROWS = 30;
