// Messages between the job runner and the results worker, typed at both ends like the import
// worker's: `ResultsRequests` and `ResultsAnswers` pair each request kind with its answer. The
// worker reads a batch's JSON body (an import's 202 answer or a poll, up to 5,000 items), checks
// it with the contract's schema and summarises it, so none of that runs on the page's thread.
// It can also make the request itself (`fetch`): the body is then received here and kept for
// the headline or digest that reads it, and the page sees only the status and headers.
// The shapes match src/jobs/import-job.ts (BatchHeadline, BatchDigest): the runner's reader
// (features/job/results-reader.ts) is typed against both, so the compiler keeps them equal.

export interface ResultsOutcomeItem {
  rowNumber: number;
  creationStatus: string;
  trackingStatus: string;
  shipmentId: string | null;
  reference: string | null;
  problems: { level: 'error' | 'warning'; code: string; column: string | null; message: string }[];
}

/** A final batch's outcome as the job store keeps it (jobs/import-job.ts BatchOutcome). */
export interface ResultsOutcome {
  jobId: string;
  batchId: string;
  chunkId: number;
  status: string;
  failureReason: string | null;
  items: (ResultsOutcomeItem | null)[];
}

export interface ResultsHeadline {
  id: string;
  status: string;
  total: number;
  completed: number;
  failureReason: string | null;
}

export interface ResultsDigest extends ResultsHeadline {
  counts: { created: number; updated: number; failed: number; withWarnings: number; trackingFailed: number };
  /** The first problems, for the live list: warnings and errors, and tracking failures (reason null: not read yet). */
  problems: (
    | { rowNumber: number; level: 'error' | 'warning'; column: string | null; message: string; serviceRows?: Record<number, number> }
    | { rowNumber: number; level: 'tracking-failed'; shipmentId: string | null; reason: string | null }
  )[];
  problemCount: number;
  /** Items matching no sent row or a row twice, plus (once final) sent rows with no item. */
  unmatchedItems: number;
  /** Every item in the chunk's row order once the batch is final; null while it processes, or once saved. */
  items: (ResultsOutcomeItem | null)[] | null;
  /** The final batch's outcome was saved by the worker (the request said where): see BatchDigest. */
  outcomeSaved?: { jobKept: boolean; trackingPending: string[] };
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

/** What the service answered: a 2xx body is kept here (`bodyId`), any other is sent as text. */
export interface ServiceAnswer {
  status: number;
  statusText: string;
  headers: [string, string][];
  bodyId: number | null;
  text: string | null;
  /** The body could not be read to its end (the connection dropped mid-answer): why. */
  cutOff: string | null;
}

export interface ResultsRequests {
  /** The batch an import answered with, without its items (the 202 body). */
  headline: { body: ResultsBody };
  /**
   * A polled batch summarised against the file row numbers of its chunk, in the order sent; with
   * `saveTo`, once final its outcome is saved there (the job store's database) and not sent back.
   */
  digest: { body: ResultsBody; rowNumbers: number[]; saveTo?: { database: string; jobId: string; chunkId: number } };
  /** One request to the service; no answer at all (the connection failed) is `failed` with `network`. */
  fetch: { request: ServiceRequest };
}

export interface ResultsAnswers {
  headline: ResultsHeadline;
  digest: ResultsDigest;
  fetch: ServiceAnswer;
}

export type ResultsRequestKind = keyof ResultsRequests;

export type ResultsWorkerRequest = { [K in ResultsRequestKind]: { kind: K; id: number } & ResultsRequests[K] }[ResultsRequestKind];

/** A request, or the page giving up a `fetch` it asked for (its signal aborted): no answer. */
export type ResultsWorkerMessage = ResultsWorkerRequest | { kind: 'abort'; id: number };

export type ResultsWorkerResponse =
  | { [K in ResultsRequestKind]: { type: 'done'; kind: K; id: number; answer: ResultsAnswers[K] } }[ResultsRequestKind]
  /** `network`: a `fetch` got no answer at all (what fetch() rejects with a TypeError for). */
  | { type: 'failed'; id: number; message: string; network?: true }
  /** Posted once, when the worker's code has loaded: from then on a request may have been made. */
  | { type: 'ready' };
