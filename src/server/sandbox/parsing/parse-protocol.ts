// Messages between the parse pool and its worker threads: a request carries its id, its answer
// the same id, so a late answer from a worker that was given up on is recognised and dropped.
import type { SpreadsheetReadErrorCode } from '../../../spreadsheet/read-error';
import type { TableLimits } from '../../../spreadsheet/table-limits';

/**
 * The most a worker hands back to the event loop for one file, checked in the worker: cloning the
 * rows into the main thread, turning them into batch rows and storing them all run there, so what
 * crosses is bounded by these and not only by what a worker's heap can hold. Cells are counted as
 * read (empty ones too); a shared string repeated in many cells counts in every one of them.
 */
export const RESULT_CAPS = { maxCells: 500_000, maxChars: 16 * 1024 * 1024 } as const;

export interface ParseRequest {
  id: number;
  /** The upload's bytes in order, in chunks transferred (not copied) to the worker. */
  chunks: ArrayBuffer[];
  fileName: string;
  limits: Partial<TableLimits>;
}

/** A file's outcome, as the reader gave it. */
export type ParseResult =
  | { id: number; ok: true; rows: string[][] }
  | { id: number; ok: false; code: SpreadsheetReadErrorCode; message: string; detail?: string };

/** What a worker sends: once `ready` when it has loaded, then one answer per request. */
export type WorkerMessage = { ready: true } | ParseAnswer;

/**
 * An answer carries the worker's own memory right after the file (V8 heap reserved plus external
 * buffers), in MB, for the pool's `sandbox:parse` diagnostics channel.
 */
export type ParseAnswer = ParseResult & { heapMb: number };
