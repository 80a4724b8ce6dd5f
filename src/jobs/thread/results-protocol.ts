// Messages between the page and the results thread, typed at both ends like the import
// worker's: `ResultsRequests` and `ResultsAnswers` pair each request kind with its answer. The
// thread reads a batch's JSON body (an import's 202 answer or a poll, up to 5,000 items), checks
// it with the contract's schema and summarises it, so none of that runs on the page's thread.
// It can also make the request itself (`fetch`): the body is then received here and kept for
// the headline or digest that reads it, and the page sees only the status and headers.
// It also holds a job's results (results-session.ts): the page opens them, then asks for the
// counts, the rows its grid shows, a download or the rows to retry. For a batch opened by its id
// it makes the batch page's requests too (`fetch` with a PageRead) and holds the batch and its
// rows as sent, which `results-open-batch` then opens: the page gets the batch's headline only.
// A job the console's server runs keeps its outcomes and payloads there: the page has the thread
// fetch each finished batch's outcome and its chunk's payload (`fetch` with a PageRead), which it
// holds, and `results-open-server-job` opens the job's results from them.
// The batches are the job engine's own shapes (jobs/import-job.ts), on both sides.
import type { RowNumbering } from '../../spreadsheet/row-numbering';
import type { BatchDigest, BatchHeadline, BatchRead, ImportJob, OutcomeDestination, OutcomeItem } from '../import-job';

/** The result filters, in the order the results show them. */
export const RESULT_FILTERS = ['failed', 'warnings', 'created', 'updated', 'tracking-failed', 'all'] as const;
export type ResultFilter = (typeof RESULT_FILTERS)[number];

/** The downloads the results offer. */
export const RESULT_DOWNLOADS = ['failed', 'warnings', 'tracking-failed'] as const;
export type ResultDownloadKind = (typeof RESULT_DOWNLOADS)[number];

/** The columns a batch's rows are rebuilt with when the rows as sent are not kept anywhere. */
export const REBUILT_COLUMNS = ['tracking_number', 'tracking_type', 'reference', 'carrier', 'name'] as const;

/**
 * Each finished batch of a job with what says its outcome changed since: the tracking follow-up
 * rewrites an outcome's items as their tracking settles, and each time takes those shipments
 * off the batch's pending list (the same job write). A job's results are opened again when this changes.
 */
export function finishedVersions(job: Pick<ImportJob, 'batches' | 'trackingFollowUps'>): Map<string, string> {
  const pending = new Map((job.trackingFollowUps ?? []).map((followUp) => [followUp.batchId, followUp.pending.length]));
  const versions = new Map<string, string>();
  for (const batch of Object.values(job.batches)) {
    if (batch.finishedAt !== null) versions.set(batch.batchId, String(pending.get(batch.batchId) ?? 0));
  }
  return versions;
}

/** One sent row and what the service made of it, as the grid shows it. */
export interface ResultRowView {
  /** The row's number in the source file (ResultsSummary.numbering says what it counts). */
  rowNumber: number;
  batchId: string;
  /** The row's place in the file its batch was sent as, from 1: the service's own number for it (row_number). */
  batchRow: number;
  /** Cells as sent, one per column of the results (empty where the row had no such column). */
  values: string[];
  /** Null when the service returned no item for the row (counted as failed). */
  item: OutcomeItem | null;
}

/** What the page holds of open results: never their rows. */
export interface ResultsSummary {
  session: number;
  /** Changes whenever the rows do (a batch joined): rows asked for under another version are stale. */
  version: number;
  /** The columns as sent: the CSV header, or the JSON fields (custom fields as `cf_<slug>`). */
  columns: string[];
  counts: Record<ResultFilter, number>;
  /** Batches whose rows are in (finished batches only). */
  batches: number;
  numbering: RowNumbering;
}

/**
 * A download, written in the thread: formula-escaped CSV or XLSX, as a Blob (a Blob crosses to
 * the page without its bytes being copied on the page's thread).
 */
export interface ResultsFile {
  file: Blob;
  rows: number;
}

/** Fix & retry's rows: CSV text (one header line, one line per row), each row's original number and the service's notes. */
export interface RetryRowsAnswer {
  csv: string;
  numbering: RowNumbering;
  rowNumbers: number[];
  notes: { level: 'error' | 'warning'; column: string | null; message: string }[][];
}

/**
 * A batch body: bytes the page transfers, or one this worker fetched and kept (`fetch` below),
 * named by its number (the page's api/http-client.ts KeptBody). A kept body is read once.
 */
export type ResultsBody = ArrayBuffer | { bodyId: number };

/**
 * A request to the service made from this worker for the page (an import or a poll), so the
 * answer's bytes — a batch carries up to 5,000 items, 1.5 MB — are received here, not on the
 * page's thread. A FormData cannot cross to a worker: a form goes as its entries.
 */
export interface ServiceRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: { text: string } | { form: [string, string | File][] } | null;
}

/**
 * What the thread makes of an answer the batch page asked for, and holds for its results: a batch
 * opened by its id (its items), or a chunk's rows as the team history kept them (its CSV).
 */
export type PageRead =
  | { kind: 'batch-view' }
  | { kind: 'rows-as-sent'; jobId: string; chunkId: number }
  /** A batch's outcome of a job the console's server runs (GET /console/api/server-jobs/:id/outcomes/:batchId). */
  | { kind: 'server-outcome'; jobId: string }
  /** A chunk's payload of a job the console's server runs (GET /console/api/server-jobs/:id/payloads/:chunkId). */
  | { kind: 'server-payload'; jobId: string };

/** What the thread makes of a request's 2xx answer in the same message (import-job.ts BatchRead, or the batch page's). */
export type ServiceRead = BatchRead | PageRead;

/** What the batch page shows of a batch it opened by its id: its headline and when it was created, never its items. */
export interface BatchView extends BatchHeadline {
  createdAt: string;
}

/** What the page learns of a chunk's rows as sent that the thread now holds: how many. */
export interface RowsAsSentHeld {
  rows: number;
}

/** What the page learns of a server-run job's outcome or payload that the thread now holds: how many rows it has. */
export interface ServerJobReadHeld {
  rows: number;
}

/** What the thread needs of a server-run job's record to open its results: the page has it, polled from the console's server. */
export type ServerJobRecord = Pick<ImportJob, 'id' | 'headers' | 'chunks' | 'batches' | 'trackingFollowUps'>;

/** A batch's results opened by its id, with its failure reason in words (the file's numbers beside the service's where the rows as sent are held). */
export interface BatchResultsSummary extends ResultsSummary {
  failureReason: string | null;
}

/** What the service answered: a 2xx body is kept here (`bodyId`), any other is sent as text. */

export interface ServiceAnswer {
  status: number;
  statusText: string;
  headers: [string, string][];
  bodyId: number | null;
  text: string | null;
  /** The body could not be read to its end (the connection dropped mid-answer): why. */
  cutOff: string | null;
  /** A 2xx body read as the request asked (ServiceRead): its batch, or why it could not be read. */
  read?: { headline: BatchHeadline } | { digest: BatchDigest } | { view: BatchView } | { rowsAsSent: RowsAsSentHeld } | { serverJob: ServerJobReadHeld } | { error: string };
}

export interface ResultsRequests {
  /** The batch an import answered with, without its items (the 202 body). */
  headline: { body: ResultsBody };
  /**
   * A polled batch summarised against the file row numbers of its chunk, in the order sent (null:
   * read them from the chunk's rows, `saveTo` naming it); with `saveTo`, once final its outcome is
   * saved there (the job store's database) and not sent back.
   */
  digest: { body: ResultsBody; rowNumbers: number[] | null; saveTo?: OutcomeDestination };
  /**
   * One request to the service; no answer at all (the connection failed) is `failed` with
   * `network`; an import whose rows are not in the database is `failed` with `rowsMissing` (nothing was sent).
   */
  fetch: { request: ServiceRequest; read?: ServiceRead };
  /** Opens (or brings up to date) a job's results, read from the job store's database; `session` is the page's number for them. */
  'results-open-job': { session: number; database: string; jobId: string; numbering: RowNumbering };
  /**
   * Opens (or brings up to date) the results of a job the console's server runs, from the outcomes
   * and payloads the thread holds of it (`fetch` with `server-outcome`, `server-payload`).
   */
  'results-open-server-job': { session: number; job: ServerJobRecord; numbering: RowNumbering };
  /**
   * Opens one batch's results from what the thread last read of it (`fetch` with `batch-view`),
   * with `rowsAsSent` the rows the thread holds of the owner's chunk (`rows-as-sent`), else rebuilt from its items.
   */
  'results-open-batch': { session: number; batchId: string; owner: { jobId: string; chunkId: number }; rowsAsSent: boolean; numbering: RowNumbering };
  /** The filter's rows [from, to). */
  'results-rows': { session: number; filter: ResultFilter; from: number; to: number };
  /** A download of a filter's rows: their columns as sent, then `error`, and `warning` where chosen. */
  'results-export': { session: number; filter: ResultDownloadKind; format: 'csv' | 'xlsx'; withWarnings: boolean; sheetName: string };
  /** The rows fix & retry hands back to the importer. */
  'results-retry': { session: number; filter: 'failed' | 'tracking-failed' };
  /** The page no longer shows these results. */
  'results-close': { session: number };
}

export interface ResultsAnswers {
  headline: BatchHeadline;
  digest: BatchDigest;
  fetch: ServiceAnswer;
  'results-open-job': ResultsSummary;
  'results-open-server-job': ResultsSummary;
  'results-open-batch': BatchResultsSummary;
  'results-rows': { version: number; from: number; rows: ResultRowView[] };
  'results-export': ResultsFile;
  'results-retry': RetryRowsAnswer;
  'results-close': null;
}

export type ResultsRequestKind = keyof ResultsRequests;

/** The kinds of request about a job's results (results-session.ts), as opposed to the runner's. */
export type ResultsSessionKind = Exclude<ResultsRequestKind, 'headline' | 'digest' | 'fetch'>;

export type ResultsWorkerRequest = { [K in ResultsRequestKind]: { kind: K; id: number } & ResultsRequests[K] }[ResultsRequestKind];

/** A request, or the page giving up a `fetch` it asked for (its signal aborted): no answer. */
export type ResultsWorkerMessage = ResultsWorkerRequest | { kind: 'abort'; id: number };

export type ResultsWorkerResponse =
  | { [K in ResultsRequestKind]: { type: 'done'; kind: K; id: number; answer: ResultsAnswers[K] } }[ResultsRequestKind]
  /** `network`: a `fetch` got no answer at all (what fetch() rejects with a TypeError for). */
  | { type: 'failed'; id: number; message: string; network?: true; rowsMissing?: true }
  /** Posted once, when the worker's code has loaded: from then on a request may have been made. */
  | { type: 'ready' };
