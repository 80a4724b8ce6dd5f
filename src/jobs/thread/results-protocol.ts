// Messages between the page and the results thread, typed at both ends like the import
// worker's: `ResultsRequests` and `ResultsAnswers` pair each request kind with its answer. The
// thread reads a batch's JSON body (an import's 202 answer or a poll, up to 5,000 items), checks
// it with the contract's schema and summarises it, so none of that runs on the page's thread.
// It can also make the request itself (`fetch`): the body is then received here and kept for
// the headline or digest that reads it, and the page sees only the status and headers.
// The batches are the job engine's own shapes (jobs/import-job.ts), on both sides.
import type { BatchDigest, BatchHeadline, OutcomeDestination } from '../import-job';

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
  digest: { body: ResultsBody; rowNumbers: number[]; saveTo?: OutcomeDestination };
  /** One request to the service; no answer at all (the connection failed) is `failed` with `network`. */
  fetch: { request: ServiceRequest };
}

export interface ResultsAnswers {
  headline: BatchHeadline;
  digest: BatchDigest;
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
