// Messages between the parse pool and its worker threads: a request carries its id, its answer
// the same id, so a late answer from a worker that was given up on is recognised and dropped.
import type { SpreadsheetReadErrorCode } from '../../spreadsheet/read-error';
import type { TableLimits } from '../../spreadsheet/table-limits';

export interface ParseRequest {
  id: number;
  /** The upload's bytes, transferred (not copied) to the worker. */
  bytes: ArrayBuffer;
  fileName: string;
  limits: Partial<TableLimits>;
}

/** What a worker sends: once `ready` when it has loaded, then one answer per request. */
export type WorkerMessage =
  | { ready: true }
  | { id: number; ok: true; rows: string[][] }
  | { id: number; ok: false; code: SpreadsheetReadErrorCode; message: string; detail?: string };

export type ParseAnswer = Exclude<WorkerMessage, { ready: true }>;
