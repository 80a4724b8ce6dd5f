// Test helpers: an outcome item, and a finished batch with the CSV payload it was sent with.
import Papa from 'papaparse';
import type { BatchOutcome, ChunkPayload, OutcomeItem } from '../../jobs/import-job';

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
