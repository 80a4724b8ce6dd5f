import { describe, expect, it } from 'vitest';
import type { Batch } from '../contract/batch';
import { digestBatch, readBatchBody } from './batch-digest';

function batch(id: string, items: { row_number?: number; creation: string; tracking?: string; warnings?: number }[], status = 'completed'): Batch {
  return {
    id, status, created_at: '', total_requests: items.length, completed_requests: items.length, failure_reason: null,
    results: items.map((item, i) => ({
      id: `${id}-${i}`, tracking_type: 'container', tracking_number: `N${i}`, creation_status: item.creation, tracking_status: item.tracking ?? 'succeeded',
      errors: item.creation === 'failed' ? [{ code: 'invalid_input', message: 'carrier is not supported', target: 'carrier' }] : [],
      warnings: Array.from({ length: item.warnings ?? 0 }, () => ({ code: 'invalid_input', message: 'not a member', target: 'assignees' })),
      ...(item.row_number !== undefined ? { row_number: item.row_number } : {}),
    })),
  };
}

describe('digestBatch', () => {
  it('counts outcomes and matches items to rows by row_number, else by position', () => {
    const b = batch('b1', [
      { row_number: 2, creation: 'updated', warnings: 1 },
      { row_number: 1, creation: 'created', tracking: 'failed' },
      // As the sandbox reports a failed row: its tracking `failed` too; it counts as failed only.
      { row_number: 3, creation: 'failed', tracking: 'failed' },
    ]);
    const progress = digestBatch(b, [10, 11, 12]);
    const outcome = progress;
    expect(progress.counts).toEqual({ created: 1, updated: 1, failed: 1, withWarnings: 1, trackingFailed: 1 });
    expect(progress.unmatchedItems).toBe(0);
    // The row that failed (12) lists its error, not a tracking failure: it created no shipment.
    expect(progress.problems).toEqual([
      { rowNumber: 10, level: 'tracking-failed', shipmentId: null, reason: null },
      { rowNumber: 11, level: 'warning', column: 'assignees', message: 'not a member' },
      { rowNumber: 12, level: 'error', column: 'carrier', message: 'carrier is not supported' },
    ]);
    expect(progress.problemCount).toBe(3);
    expect(outcome.items?.map((item) => [item?.rowNumber, item?.creationStatus])).toEqual([[10, 'created'], [11, 'updated'], [12, 'failed']]);
  });

  it('lists a row whose tracking failed by its shipment, its reason not known yet', () => {
    const b = batch('b1', [{ creation: 'created' }, { creation: 'updated', tracking: 'failed' }]);
    b.results[1]!.shipment_id = 'ship-2';
    expect(digestBatch(b, [2, 3]).problems).toEqual([{ rowNumber: 3, level: 'tracking-failed', shipmentId: 'ship-2', reason: null }]);
  });

  it('keeps the file numbers of the rows a message quotes by the service’s row_number', () => {
    const reason = 'Row 2 (row_number, counting data rows from 1, the header not counted) holds the sandbox test number CMDU240000500, which makes the batch fail.';
    const b = batch('b1', [{ creation: 'created' }, { creation: 'failed' }, { creation: 'failed' }], 'failed');
    b.results[1]!.errors = [{ code: 'batch_failed', message: reason, target: null }];
    b.results[2]!.errors = [{ code: 'batch_failed', message: `The batch failed before this row was processed: ${reason}`, target: null }];
    // The batch's rows are lines 7, 9 and 10 of the file (line 8 was skipped before sending).
    const { problems } = digestBatch(b, [7, 9, 10]);
    expect(problems.map((p) => (p.level === 'error' ? p.serviceRows : undefined))).toEqual([{ 1: 9 }, { 1: 9 }]);
    expect(problems[0]).toEqual({ rowNumber: 9, level: 'error', column: null, message: reason, serviceRows: { 1: 9 } });
  });

  it('without row_number, item i is row i', () => {
    const b = batch('b1', [{ creation: 'created' }, { creation: 'failed' }]);
    const progress = digestBatch(b, [7, 9]);
    const outcome = progress;
    expect(outcome.items?.map((item) => item?.rowNumber)).toEqual([7, 9]);
    expect(progress.unmatchedItems).toBe(0);
  });

  it('counts an item given twice, or a sent row with no item, as unmatched', () => {
    const b = batch('b1', [{ row_number: 1, creation: 'created' }, { row_number: 1, creation: 'created' }]);
    const progress = digestBatch(b, [1, 2]);
    expect(progress.unmatchedItems).toBe(2); // the duplicate, and row 2 with no item
  });

  it('counts only rows that are final while the batch processes, and keeps no outcome yet', () => {
    const b = { ...batch('b1', [{ creation: 'created' }, { creation: 'processing', tracking: 'processing' }], 'processing'), completed_requests: 1 };
    const progress = digestBatch(b, [1, 2]);
    expect(progress.counts.created).toBe(1);
    expect(progress).toMatchObject({ status: 'processing', completed: 1, total: 2 });
    expect(progress.items).toBeNull();
  });
});

describe('readBatchBody', () => {
  const bytes = (text: string) => new TextEncoder().encode(text).buffer;

  it('reads a batch and says what is wrong with a body that is not one', () => {
    expect(readBatchBody(bytes(JSON.stringify(batch('b9', [{ creation: 'created' }]))), 'The batch').id).toBe('b9');
    expect(() => readBatchBody(bytes('<html>'), 'The batch')).toThrow('The batch answered with something that is not JSON.');
    expect(() => readBatchBody(bytes('{"id":"b"}'), 'The import')).toThrow(/^The import answered in an unexpected shape at status/);
  });
});
