// A batch opened by its id (DESIGN §1 journey 12) as the results grid reads a job's batches: its
// items as an outcome in the order of the rows sent, and the rows as sent — the team history's
// copy, with every column, when the console's server holds it; else rebuilt from the items
// (tracking_number, tracking_type, reference, carrier, name: what the service echoes back).
import Papa from 'papaparse';
import type { Batch, ResultItem } from '../../contract/batch';
import type { TeamChunkRows } from '../../contract/team-history';
import type { BatchOutcome, ChunkPayload, OutcomeItem } from '../../jobs/import-job';

/** The columns a batch's rows are rebuilt with when the rows as sent are not kept anywhere. */
export const REBUILT_COLUMNS = ['tracking_number', 'tracking_type', 'reference', 'carrier', 'name'] as const;

function outcomeItem(item: ResultItem, rowNumber: number): OutcomeItem {
  return {
    rowNumber,
    creationStatus: item.creation_status,
    trackingStatus: item.tracking_status,
    shipmentId: item.shipment_id ?? null,
    reference: item.reference ?? null,
    problems: [
      ...item.errors.map((p) => ({ level: 'error' as const, code: p.code, column: p.target ?? null, message: p.message })),
      ...item.warnings.map((p) => ({ level: 'warning' as const, code: p.code, column: p.target ?? null, message: p.message })),
    ],
  };
}

/**
 * The batch's items in the order of the rows sent: by `row_number` where the service gives it (a
 * sandbox extension), else by position. `rowNumbers` are the file's numbers of the rows sent.
 */
export function batchOutcome(batch: Batch, owner: { jobId: string; chunkId: number }, rowNumbers: readonly number[]): BatchOutcome {
  const size = Math.max(batch.results.length, rowNumbers.length);
  const items = new Array<OutcomeItem | null>(size).fill(null);
  batch.results.forEach((item, index) => {
    const position = item.row_number !== undefined ? item.row_number - 1 : index;
    if (position >= 0 && position < size && items[position] === null) items[position] = outcomeItem(item, rowNumbers[position] ?? position + 1);
  });
  return { jobId: owner.jobId, batchId: batch.id, chunkId: owner.chunkId, status: batch.status, failureReason: batch.failure_reason ?? null, items };
}

/** The rows as the team history kept them, as a chunk's payload. */
export function keptPayload(rows: TeamChunkRows, owner: { jobId: string; chunkId: number }): ChunkPayload {
  return { jobId: owner.jobId, chunkId: owner.chunkId, rowNumbers: rows.rowNumbers, body: rows.body };
}

/** The rows rebuilt from the items, numbered as the service numbered them (from 1, in the order sent). */
export function rebuiltPayload(batch: Batch, owner: { jobId: string; chunkId: number }): ChunkPayload {
  const rows = new Array<string[]>(batch.results.length);
  batch.results.forEach((item, index) => {
    const position = item.row_number !== undefined && item.row_number <= batch.results.length ? item.row_number - 1 : index;
    rows[position] ??= [item.tracking_number, item.tracking_type, item.reference ?? '', item.carrier_scac ?? '', item.name ?? ''];
  });
  const filled = Array.from(rows, (row) => row ?? REBUILT_COLUMNS.map(() => ''));
  return {
    jobId: owner.jobId,
    chunkId: owner.chunkId,
    rowNumbers: filled.map((_, index) => index + 1),
    body: { format: 'csv', csv: Papa.unparse({ fields: [...REBUILT_COLUMNS], data: filled }, { newline: '\r\n' }) },
  };
}
