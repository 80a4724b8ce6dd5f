// Test helpers: an outcome item, a finished batch with the CSV payload it was sent with, and a
// finished job kept in an in-memory job storage with its outcomes and payloads.
import Papa from 'papaparse';
import { type KeptBody, KeptBodyResponse } from '../../api/http-client';
import type { Batch } from '../../contract/batch';
import type { BatchOutcome, BatchProgress, ChunkPayload, ImportJob, OutcomeItem } from '../import-job';
import { MemoryJobStorage } from '../storage/memory-storage';
import type { ResultsThread } from './results-reader';
import { ResultsSessions, type ResultsSource } from './results-session';

export function item(rowNumber: number, change: Partial<OutcomeItem> = {}): OutcomeItem {
  return { rowNumber, creationStatus: 'created', trackingStatus: 'succeeded', shipmentId: `s${rowNumber}`, reference: null, problems: [], ...change };
}

export function sentBatch(
  chunkId: number,
  headers: string[],
  rows: string[][],
  items: (OutcomeItem | null)[],
  rowNumbers: number[] = items.map((entry, i) => entry?.rowNumber ?? i + 1),
): { outcome: BatchOutcome; payload: ChunkPayload } {
  return {
    outcome: { jobId: 'job-1', batchId: `batch-${chunkId}`, chunkId, status: 'completed', failureReason: null, items },
    payload: { jobId: 'job-1', chunkId, rowNumbers, body: { format: 'csv', csv: Papa.unparse({ fields: headers, data: rows }, { newline: '\r\n' }) } },
  };
}

/** A job whose chunks were all accepted and whose batches all finished, with a store that holds them. */
export function finishedJob(headers: string[], batches: { outcome: BatchOutcome; payload: ChunkPayload }[], change: Partial<ImportJob> = {}) {
  const job: ImportJob = {
    id: 'job-1',
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    finishedAt: 1_700_000_000_000,
    source: { kind: 'file', fileName: 'march.csv', size: 100, contentHash: null },
    endpoint: 'file',
    headers,
    chunkRows: 5000,
    serviceUrl: '',
    rowsRead: batches.reduce((sum, batch) => sum + batch.payload.rowNumbers.length, 0),
    numbering: 'Line',
    skippedBeforeSend: [],
    chunks: batches.map(({ outcome, payload }, i) => ({
      id: outcome.chunkId,
      firstPosition: i,
      rowCount: payload.rowNumbers.length,
      firstRow: payload.rowNumbers[0] ?? 0,
      lastRow: payload.rowNumbers.at(-1) ?? 0,
      withoutReference: 0,
      state: { status: 'accepted', batchId: outcome.batchId, at: 1 },
      attempts: 1,
    })),
    nextChunkId: batches.length,
    batches: Object.fromEntries(batches.map(({ outcome }) => [outcome.batchId, { batchId: outcome.batchId, finishedAt: 2 } as BatchProgress])),
    runState: 'finished',
    pausedReason: null,
    notify: false,
    ...change,
  };
  return { job, batches };
}

/** The job kept in a memory storage, as the job store keeps it: the record, each chunk's payload, each batch's outcome. */
export async function storedJob(job: ImportJob, batches: { outcome: BatchOutcome; payload: ChunkPayload }[], storage = new MemoryJobStorage()): Promise<MemoryJobStorage> {
  await storage.create(job, batches.map((batch) => batch.payload));
  for (const { outcome } of batches) await storage.saveOutcome(outcome);
  return storage;
}

/**
 * The results thread run in this thread over one storage, for a page's tests: the same sessions,
 * no worker; its fetch (`fetchImpl`) answers a 2xx with a kept body, read and held as the worker does.
 */
export function inProcessThread(source: ResultsSource, fetchImpl: typeof fetch = (...args) => fetch(...args)): ResultsThread & { sessions: ResultsSessions } {
  const sessions = new ResultsSessions(() => source);
  const reads = new Map<number, ReturnType<ResultsSessions['readForPage']>>();
  let nextBodyId = 1;
  const take = (body: ArrayBuffer | KeptBody) => {
    const read = body instanceof ArrayBuffer ? undefined : reads.get(body.bodyId);
    if (!read) return Promise.reject(new Error('The body was not read by the results thread.'));
    reads.delete((body as KeptBody).bodyId);
    return Promise.resolve(structuredClone(read));
  };
  return {
    sessions,
    // A structured copy of each answer, as a worker's message would make (a download's Blob crosses as it is).
    request: (kind, body) => sessions.answer(kind, body).then((answer) => (kind === 'results-export' ? answer : structuredClone(answer))),
    fetchReading: (read) => async (input, init) => {
      const response = await fetchImpl(input, init);
      if (!response.ok) return response;
      const bodyId = nextBodyId++;
      reads.set(bodyId, sessions.readForPage(read, await response.arrayBuffer()));
      return new KeptBodyResponse({ bodyId }, { status: response.status, statusText: response.statusText, headers: response.headers });
    },
    batchView: (body) => take(body).then((read) => ('view' in read ? read.view : Promise.reject(new Error('Not a batch.')))),
    rowsAsSentHeld: (body) => take(body).then((read) => ('rowsAsSent' in read ? read.rowsAsSent : Promise.reject(new Error('Not rows as sent.')))),
    serverJobHeld: (body) => take(body).then((read) => ('serverJob' in read ? read.serverJob : Promise.reject(new Error('Not a server-run job’s results.')))),
  };
}

/** Batch b-9 as the service answers it: failed after two rows, the second refused for its carrier. */
export function failedBatch(failureReason: string): Batch {
  return {
    id: 'b-9',
    status: 'failed',
    created_at: '2026-11-26T10:00:00Z',
    total_requests: 2,
    completed_requests: 2,
    failure_reason: failureReason,
    results: [
      { id: 'i1', row_number: 1, tracking_type: 'container', tracking_number: 'MSCU1', creation_status: 'created', tracking_status: 'succeeded', shipment_id: 's1', errors: [], warnings: [] },
      { id: 'i2', row_number: 2, tracking_type: 'container', tracking_number: 'MSCU2', creation_status: 'failed', tracking_status: 'failed', errors: [{ code: 'x', message: 'No such carrier.', target: 'carrier' }], warnings: [] },
    ],
  };
}
