// The shape of an import job as src/jobs/ keeps it in IndexedDB (DESIGN §5). One job = one
// dropped file, one quick-add list, or one retry of another job's failed rows; it is cut into
// chunks sent one at a time, each accepted chunk becomes one batch, each finished batch leaves a
// compact outcome. Types only: job-store.ts writes them, pages read them.
//
//   ImportJob        the job record (small: no row data), listed by History, shown by the job page
//   JobChunk         one request's worth of rows: position, file row numbers, state, attempts
//   ChunkPayload     the rows as sent (CSV text or JSON list) and their file row numbers — stored
//                    apart, read only when sending or when matching results to rows
//   BatchProgress    the latest poll of an accepted chunk's batch, summarised (every tab sees it)
//   BatchOutcome     a finished batch's items, compact, in row order (for results and retries)
import type { KeptBody } from '../api/http-client';
import type { TrackingFollowUp } from './runner/tracking-follow-up';
import type { CsvChunk } from '../spreadsheet/csv-output';
import type { RowNumbering } from '../spreadsheet/row-numbering';

/** Where the rows came from. `retry` names the job whose failed rows were fixed and resent. */
export type JobSource =
  | { kind: 'file'; fileName: string; size: number | null; contentHash: string | null; sheet?: string }
  | { kind: 'quick-add' }
  | { kind: 'retry'; jobId: string; label: string; /** Set when the rows came from a batch opened by its id. */ batchId?: string };

/** Which endpoint the chunks go to: the CSV file import or the JSON list import. */
export type JobEndpoint = 'file' | 'list';

/** A row that was read but is not sent, with why (invalid, excluded, refused by the service…). */
export interface SkippedBeforeSend {
  rowNumber: number;
  reason: string;
}

/**
 * pending → sending → accepted(batch id) | rejected(error) | unknown; an unknown chunk (the
 * answer was lost, it may have been imported) waits for the user: resend (→ pending) or skip.
 */
export type ChunkState =
  | { status: 'pending' }
  | { status: 'sending'; since: number }
  | { status: 'accepted'; batchId: string; at: number }
  | { status: 'rejected'; error: string; httpStatus: number | null; at: number }
  | { status: 'unknown'; error: string; at: number }
  | { status: 'skipped'; reason: string; at: number };

export type ChunkStatus = ChunkState['status'];

export interface JobChunk {
  /** Stable id within the job (a split chunk's halves get new ids); also the payload's key. */
  id: number;
  /** 0-based position of the chunk's first row among the job's rows to send. */
  firstPosition: number;
  rowCount: number;
  /** File row numbers of the first and last row (the file's own numbering, header excluded or not). */
  firstRow: number;
  lastRow: number;
  /** Rows with an empty `reference`: the only ones a resend of an unknown chunk could duplicate. */
  withoutReference: number;
  state: ChunkState;
  /** Requests made for this chunk (a 429 that was waited out does not count). */
  attempts: number;
}

export type ChunkBody = { format: 'csv'; csv: string } | { format: 'json'; requests: Record<string, unknown>[] };

export interface ChunkPayload {
  jobId: string;
  chunkId: number;
  /** File row number of each row, in the order sent: result item i is rowNumbers[i]. */
  rowNumbers: number[];
  body: ChunkBody;
  /** What the Ready step foresaw each row would do, one letter per row (spreadsheet/row-foresight.ts); absent when it did not. */
  foreseen?: string;
}

export interface OutcomeCounts {
  created: number;
  updated: number;
  failed: number;
  withWarnings: number;
  trackingFailed: number;
}

/**
 * A row's warning or error as the service reported it, or that its shipment's tracking failed.
 * `serviceRows`: the file's numbers of the rows the message quotes by the service's own count
 * (spreadsheet/row-numbering.ts quotedServiceRows), absent when it quotes none. A tracking
 * failure's `reason` is `last_process_failure_reason`, null until the tracking follow-up reads it.
 */
export type RowProblemRecord =
  | { rowNumber: number; level: 'error' | 'warning'; column: string | null; message: string; serviceRows?: Record<number, number> }
  | { rowNumber: number; level: 'tracking-failed'; shipmentId: string | null; reason: string | null };

export interface BatchProgress {
  batchId: string;
  chunkId: number;
  status: string;
  total: number;
  completed: number;
  counts: OutcomeCounts;
  /** The first problems seen, for the live list (the full list is in the outcome). */
  problems: RowProblemRecord[];
  problemCount: number;
  acceptedAt: number;
  lastPolledAt: number | null;
  /** When `completed` last changed: a batch that stops moving is shown as stalled. */
  lastMovedAt: number;
  finishedAt: number | null;
  failureReason: string | null;
  /** Result items that could not be matched to exactly one sent row (should stay 0). */
  unmatchedItems: number;
}

/** One result item, compact, in the order of the chunk's rows. */
export interface OutcomeItem {
  rowNumber: number;
  creationStatus: string;
  trackingStatus: string;
  shipmentId: string | null;
  reference: string | null;
  problems: { level: 'error' | 'warning'; code: string; column: string | null; message: string }[];
  /** `last_process_failure_reason`, when the tracking follow-up saw the tracking fail. */
  trackingFailureReason?: string | null;
}

export interface BatchOutcome {
  jobId: string;
  batchId: string;
  chunkId: number;
  status: string;
  failureReason: string | null;
  /** items[i] is the chunk's i-th row; null where the service returned no item for it. */
  items: (OutcomeItem | null)[];
}

/** What an import's answer or a poll says of a batch, without its items. */
export interface BatchHeadline {
  id: string;
  status: string;
  total: number;
  completed: number;
  failureReason: string | null;
}

/** A polled batch summarised against its chunk's rows (off the main thread: batch-digest.ts). */
export interface BatchDigest extends BatchHeadline {
  counts: OutcomeCounts;
  problems: RowProblemRecord[];
  problemCount: number;
  unmatchedItems: number;
  /** Every item in row order once the batch is final; null while it processes, or once saved. */
  items: (OutcomeItem | null)[] | null;
  /**
   * Set when the reader saved the final batch's outcome itself (the results worker does, so its
   * items never cross to the page's thread): `items` is then null and the batch is final all the
   * same. `jobKept` false: the job had been deleted, nothing was saved. `trackingPending`: the
   * outcome's shipments the tracking follow-up checks (startFollowUps: tracking still processing,
   * or failed with its reason not yet read).
   */
  outcomeSaved?: { jobKept: boolean; trackingPending: string[] };
}

/** Where a reader saves a final batch's outcome: the job store's database, the chunk's job. */
export interface OutcomeDestination {
  database: string;
  jobId: string;
  chunkId: number;
}

/**
 * Reads batch bodies (up to 5,000 items) for the runner. The console's reader does it in a Web
 * Worker (thread/results-reader.ts), so a finished batch never holds the page's thread;
 * an unreadable body rejects with a sentence. Given `saveTo`, a final batch's outcome is saved
 * there by the reader (BatchDigest.outcomeSaved) rather than handed back.
 */
export interface BatchReader {
  headline(body: ArrayBuffer | KeptBody): Promise<BatchHeadline>;
  /** `rowNumbers` null: the reader reads them from the chunk's rows (`saveTo` names it). */
  digest(body: ArrayBuffer | KeptBody, rowNumbers: number[] | null, saveTo?: OutcomeDestination): Promise<BatchDigest>;
  /**
   * Where the reader makes the requests itself, their fetch: a 2xx body then stays with the
   * reader (KeptBody), and the page only sees the status and headers.
   */
  fetch?: typeof fetch;
  /**
   * The same fetch, which also reads a 2xx answer as `read` says in the same step (one message
   * per request): headline or digest of that answer's KeptBody then answer at once. An import
   * sent this way carries no body: the reader builds it from the chunk's rows, which it reads
   * from the job store's database itself.
   */
  fetchReading?: (read: BatchRead) => typeof fetch;
}

/** What a reader's fetch makes of a 2xx answer (BatchReader.fetchReading). */
export type BatchRead =
  | { kind: 'headline'; rows: { database: string; jobId: string; chunkId: number; endpoint: JobEndpoint; fileName: string } }
  | { kind: 'digest'; saveTo: OutcomeDestination };

/** `running`: the runner sends and polls it; `paused`: it waits for the user (key refused…). */
export type JobRunState = 'running' | 'paused' | 'cancelled' | 'finished';

export interface ImportJob {
  id: string;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  source: JobSource;
  endpoint: JobEndpoint;
  /** The exact headers of the CSV chunks (empty for JSON list jobs). */
  headers: string[];
  /** The rows per chunk the job started with; a cap answer halves a chunk below it. */
  chunkRows: number;
  /** The service the job was sent to (base URL, empty = this origin); never the key. */
  serviceUrl: string;
  /** Rows read from the source, header excluded. */
  rowsRead: number;
  /**
   * What its row numbers count, as the importer knew when it read the rows: "Line" of a text
   * file, "Row" of a sheet or a list; a retry keeps its original file's.
   */
  numbering: RowNumbering;
  /** Rows left out before sending, with reasons (invalid, excluded). */
  skippedBeforeSend: SkippedBeforeSend[];
  chunks: JobChunk[];
  nextChunkId: number;
  batches: Record<string, BatchProgress>;
  runState: JobRunState;
  /** Why the job is paused, as a sentence. */
  pausedReason: string | null;
  /** Ask for a browser notification when it finishes in a hidden tab. */
  notify: boolean;
  /** Finished batches whose shipments' tracking was still processing (runner/tracking-follow-up.ts). */
  trackingFollowUps?: TrackingFollowUp[];
  /** Where it is sent from: absent, this browser's runner; `console-server`, the console's server (every tab may close). */
  runsOn?: 'console-server';
  /** Who sent it, where the console's server runs it: the single-sign-on name or the name typed at Connect. */
  sentBy?: string | null;
}

/**
 * What a caller hands to createJob: already-normalized rows (cut into chunks of `chunkRows`
 * here), CSV chunks the worker already cut, or ready JSON requests for the list endpoint.
 */
export type NewJobRows =
  | { format: 'csv'; headers: string[]; rows: string[][]; rowNumbers: number[] }
  | { format: 'csv-chunks'; headers: string[]; chunks: CsvChunk[] }
  | { format: 'json'; requests: Record<string, unknown>[]; rowNumbers: number[] };

export interface NewJob {
  source: JobSource;
  serviceUrl: string;
  rowsRead: number;
  /** What the rows' numbers count (the import worker's, for a file). */
  numbering: RowNumbering;
  skipped: SkippedBeforeSend[];
  rows: NewJobRows;
  chunkRows: number;
  notify?: boolean;
  /** The dropped file's SHA-256 (hex), put in `source.contentHash` once known: Send does not wait for it. */
  contentHash?: Promise<string>;
}
