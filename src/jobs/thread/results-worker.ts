// The results thread. It makes the page's imports and polls (service-fetch.ts), so their bodies
// arrive here, and reads each 2xx answer in the same message: an import's 202 body to its
// headline (the import's body built here from the chunk's rows, read from the job store's
// database), a polled batch to its digest (counts, first problems, and once final every item in
// row order). A final batch's outcome is saved in the job store's database here
// (storage/indexeddb-outcome-writer.ts): its 5,000 items never cross to the page, which would pay
// a structured clone for them twice (this thread's message, then IndexedDB). It holds the results
// the page shows (results-session.ts), read from that database, and for a batch opened by its id
// it makes the page's requests for the batch and its rows as sent and holds both; for a job the
// console's server runs, its outcomes and payloads, which that job's results are opened from.
// A thin adapter over ../batch-digest.ts, service-fetch.ts and results-session.ts.
import type { BatchDigest, BatchOutcome, OutcomeDestination } from '../import-job';
import { trackingToFollow } from '../result-item';
import { OutcomeWriter } from '../storage/indexeddb-outcome-writer';
import type { ResultsWorkerMessage, ResultsWorkerRequest, ResultsWorkerResponse, ServiceAnswer, ServiceRead, ServiceRequest } from './results-protocol';
import { ResultsSessions } from './results-session';
import { digestBatch, headlineOf, readBatchBody } from '../batch-digest';
import { NoAnswerError, ServiceFetcher, withChunkRows } from './service-fetch';

/** The requests this worker makes for the page, and the bodies it keeps for reading. */
const service = new ServiceFetcher();

/** One writer (one open connection) per database asked for. */
const writers = new Map<string, OutcomeWriter>();

function writerOf(database: string): OutcomeWriter {
  let writer = writers.get(database);
  if (!writer) writers.set(database, (writer = new OutcomeWriter(database)));
  return writer;
}

/** The results the page shows, read from the job store's database. */
const results = new ResultsSessions(writerOf);

/** The outcome's shipments the tracking follow-up checks (the one rule: result-item.ts). */
const trackingPending = (outcome: BatchOutcome) => outcome.items.flatMap((item) => (trackingToFollow(item) ? [item.shipmentId] : []));

async function saveOutcome(digest: BatchDigest, saveTo: OutcomeDestination): Promise<BatchDigest> {
  if (digest.items === null) return digest;
  const { database, jobId, chunkId } = saveTo;
  const outcome: BatchOutcome = { jobId, batchId: digest.id, chunkId, status: digest.status, failureReason: digest.failureReason, items: digest.items };
  let jobKept: boolean;
  try {
    jobKept = await writerOf(database).save(outcome);
  } catch (error) {
    throw new Error(`The batch’s results could not be saved in this browser: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return { ...digest, items: null, outcomeSaved: { jobKept, trackingPending: jobKept ? trackingPending(outcome) : [] } };
}

/** The file row numbers of each chunk's rows, read once from its payload (a batch is polled many times). */
const rowNumbersKept = new Map<string, Promise<number[]>>();

function rowNumbersOf({ database, jobId, chunkId }: OutcomeDestination): Promise<number[]> {
  const key = `${database}\u0000${jobId}\u0000${chunkId}`;
  let rowNumbers = rowNumbersKept.get(key);
  if (!rowNumbers) {
    rowNumbers = writerOf(database)
      .payload(jobId, chunkId)
      .then((payload) => payload?.rowNumbers ?? []);
    rowNumbersKept.set(key, rowNumbers);
    rowNumbers.catch(() => rowNumbersKept.delete(key));
  }
  return rowNumbers;
}

async function digestOf(body: ArrayBuffer, rowNumbers: number[] | null, saveTo: OutcomeDestination | undefined): Promise<BatchDigest> {
  const batch = readBatchBody(body, 'The batch');
  const digest = digestBatch(batch, rowNumbers ?? (saveTo ? await rowNumbersOf(saveTo) : []));
  if (digest.items !== null && saveTo) rowNumbersKept.delete(`${saveTo.database}\u0000${saveTo.jobId}\u0000${saveTo.chunkId}`);
  return saveTo ? saveOutcome(digest, saveTo) : digest;
}

/** The chunk's rows could not be read: nothing was sent. */
class RowsMissing extends Error {}

/** An import's body, built here from the chunk's rows as the job store keeps them. */
async function withRows(request: ServiceRequest, rows: Extract<ServiceRead, { kind: 'headline' }>['rows']): Promise<ServiceRequest> {
  const payload = await writerOf(rows.database).payload(rows.jobId, rows.chunkId);
  if (!payload) throw new RowsMissing('Its rows were not found in this browser’s storage.');
  return withChunkRows(request, payload.body, rows.fileName);
}

/** One request to the service and, for a 2xx answer, its reading: one message each way. */
async function fetchAndRead(id: number, request: ServiceRequest, read: ServiceRead | undefined): Promise<ServiceAnswer> {
  if (!read) return service.fetch(id, request);
  if (read.kind === 'headline') {
    return service.fetch(id, await withRows(request, read.rows), (body) => Promise.resolve().then(() => ({ headline: headlineOf(readBatchBody(body, 'The import')) })));
  }
  if (read.kind === 'digest') return service.fetch(id, request, async (body) => ({ digest: await digestOf(body, null, read.saveTo) }));
  // The batch page's: the batch or the rows as sent are held here for its results.
  return service.fetch(id, request, (body) => Promise.resolve().then(() => results.readForPage(read, body)));
}

async function respond(request: ResultsWorkerRequest): Promise<ResultsWorkerResponse> {
  const { id } = request;
  switch (request.kind) {
    case 'fetch':
      return { type: 'done', kind: 'fetch', id, answer: await fetchAndRead(id, request.request, request.read) };
    case 'headline':
      return { type: 'done', kind: 'headline', id, answer: headlineOf(readBatchBody(service.take(request.body), 'The import')) };
    case 'digest':
      return { type: 'done', kind: 'digest', id, answer: await digestOf(service.take(request.body), request.rowNumbers, request.saveTo) };
    default:
      return { type: 'done', kind: request.kind, id, answer: await results.answer(request.kind, request) } as ResultsWorkerResponse;
  }
}

self.onmessage = (event: MessageEvent<ResultsWorkerMessage>) => {
  const message = event.data;
  if (message.kind === 'abort') return service.abort(message.id);
  respond(message).then(
    (response) => self.postMessage(response),
    (error: unknown) =>
      self.postMessage({
        type: 'failed',
        id: message.id,
        message: error instanceof Error ? error.message : String(error),
        ...(error instanceof NoAnswerError ? { network: true as const } : {}),
        ...(error instanceof RowsMissing ? { rowsMissing: true as const } : {}),
      } satisfies ResultsWorkerResponse),
  );
};

// The page's requests before this line were queued, never made: if loading fails, it may say so.
self.postMessage({ type: 'ready' } satisfies ResultsWorkerResponse);
