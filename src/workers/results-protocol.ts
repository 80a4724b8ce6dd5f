// Messages between the job runner and the results worker, typed at both ends like the import
// worker's: `ResultsRequests` and `ResultsAnswers` pair each request kind with its answer. The
// worker reads a batch's JSON body (an import's 202 answer or a poll, up to 5,000 items), checks
// it with the contract's schema and summarises it, so none of that runs on the page's thread.
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
  /** The first problems, for the live list. */
  problems: { rowNumber: number; level: 'error' | 'warning'; column: string | null; message: string }[];
  problemCount: number;
  /** Items matching no sent row or a row twice, plus (once final) sent rows with no item. */
  unmatchedItems: number;
  /** Every item in the chunk's row order once the batch is final; null while it processes, or once saved. */
  items: (ResultsOutcomeItem | null)[] | null;
  /** The final batch's outcome was saved by the worker (the request said where): see BatchDigest. */
  outcomeSaved?: { jobKept: boolean; trackingPending: string[] };
}

export interface ResultsRequests {
  /** The batch an import answered with, without its items (the 202 body). */
  headline: { body: ArrayBuffer };
  /**
   * A polled batch summarised against the file row numbers of its chunk, in the order sent; with
   * `saveTo`, once final its outcome is saved there (the job store's database) and not sent back.
   */
  digest: { body: ArrayBuffer; rowNumbers: number[]; saveTo?: { database: string; jobId: string; chunkId: number } };
}

export interface ResultsAnswers {
  headline: ResultsHeadline;
  digest: ResultsDigest;
}

export type ResultsRequestKind = keyof ResultsRequests;

export type ResultsWorkerRequest = { [K in ResultsRequestKind]: { kind: K; id: number } & ResultsRequests[K] }[ResultsRequestKind];

export type ResultsWorkerResponse =
  | { [K in ResultsRequestKind]: { type: 'done'; kind: K; id: number; answer: ResultsAnswers[K] } }[ResultsRequestKind]
  | { type: 'failed'; id: number; message: string };
