// Reads import batches off the main thread: an import's 202 body to its headline, a polled
// batch to its digest (counts, first problems, and once final every item in row order); makes
// the import and poll requests for the page, so their bodies arrive here (service-fetch.ts).
// A thin adapter over results-summary.ts and service-fetch.ts. Asked to, it saves a final batch's outcome in the job store's
// database itself (storage/indexeddb-outcome-writer.ts): its 5,000 items then never cross to the page, which
// would pay a structured clone for them twice (this worker's message, then IndexedDB).
import type { BatchDigest, BatchOutcome, OutcomeDestination } from '../import-job';
import { OutcomeWriter } from '../storage/indexeddb-outcome-writer';
import type { ResultsWorkerMessage, ResultsWorkerRequest, ResultsWorkerResponse } from './results-protocol';
import { digestBatch, headlineOf, readBatchBody } from './results-summary';
import { NoAnswerError, ServiceFetcher } from './service-fetch';

/** The requests this worker makes for the page, and the bodies it keeps for reading. */
const service = new ServiceFetcher();

/** One writer (one open connection) per database asked for. */
const writers = new Map<string, OutcomeWriter>();

/**
 * Shipments still tracking, or whose tracking failed (a result item gives no reason): what the
 * runner follows up (jobs/tracking-follow-up.ts startFollowUps, same rule).
 */
const trackingPending = (outcome: BatchOutcome) =>
  outcome.items.flatMap((item) =>
    item?.shipmentId && (item.trackingStatus === 'processing' || (item.trackingStatus === 'failed' && item.creationStatus !== 'failed')) ? [item.shipmentId] : [],
  );

async function saveOutcome(digest: BatchDigest, saveTo: OutcomeDestination): Promise<BatchDigest> {
  if (digest.items === null) return digest;
  const { database, jobId, chunkId } = saveTo;
  const outcome: BatchOutcome = { jobId, batchId: digest.id, chunkId, status: digest.status, failureReason: digest.failureReason, items: digest.items };
  let writer = writers.get(database);
  if (!writer) writers.set(database, (writer = new OutcomeWriter(database)));
  let jobKept: boolean;
  try {
    jobKept = await writer.save(outcome);
  } catch (error) {
    throw new Error(`The batch’s results could not be saved in this browser: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return { ...digest, items: null, outcomeSaved: { jobKept, trackingPending: jobKept ? trackingPending(outcome) : [] } };
}

async function respond(request: ResultsWorkerRequest): Promise<ResultsWorkerResponse> {
  const { id } = request;
  switch (request.kind) {
    case 'fetch':
      return { type: 'done', kind: 'fetch', id, answer: await service.fetch(id, request.request) };
    case 'headline':
      return { type: 'done', kind: 'headline', id, answer: headlineOf(readBatchBody(service.take(request.body), 'The import')) };
    case 'digest': {
      const digest = digestBatch(readBatchBody(service.take(request.body), 'The batch'), request.rowNumbers);
      return { type: 'done', kind: 'digest', id, answer: request.saveTo ? await saveOutcome(digest, request.saveTo) : digest };
    }
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
      } satisfies ResultsWorkerResponse),
  );
};

// The page's requests before this line were queued, never made: if loading fails, it may say so.
self.postMessage({ type: 'ready' } satisfies ResultsWorkerResponse);
