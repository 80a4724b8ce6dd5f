// Test helpers: an outcome item, a finished batch with the CSV payload it was sent with, and a
// finished job with an in-memory store of its outcomes and payloads.
import Papa from 'papaparse';
import type { BatchOutcome, BatchProgress, ChunkPayload, ImportJob, OutcomeItem } from '../../jobs/import-job';

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
  const store = {
    getOutcomes: (jobId: string) => Promise.resolve(batches.map((batch) => batch.outcome).filter((outcome) => outcome.jobId === jobId)),
    getPayload: (_jobId: string, chunkId: number) => Promise.resolve(batches.find((batch) => batch.payload.chunkId === chunkId)?.payload),
  };
  return { job, store };
}
