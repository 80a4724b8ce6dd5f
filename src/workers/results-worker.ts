// Reads import batches off the main thread: an import's 202 body to its headline, a polled
// batch to its digest (counts, first problems, and once final every item in row order). A thin
// adapter over results-summary.ts.
import type { ResultsWorkerRequest, ResultsWorkerResponse } from './results-protocol';
import { digestBatch, headlineOf, readBatchBody } from './results-summary';

function respond(request: ResultsWorkerRequest): ResultsWorkerResponse {
  const { id } = request;
  if (request.kind === 'headline') return { type: 'done', kind: 'headline', id, answer: headlineOf(readBatchBody(request.body, 'The import')) };
  return { type: 'done', kind: 'digest', id, answer: digestBatch(readBatchBody(request.body, 'The batch'), request.rowNumbers) };
}

self.onmessage = (event: MessageEvent<ResultsWorkerRequest>) => {
  const request = event.data;
  let response: ResultsWorkerResponse;
  try {
    response = respond(request);
  } catch (error) {
    response = { type: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(response);
};
