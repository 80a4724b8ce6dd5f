import { describe, expect, it } from 'vitest';
import type { Batch } from '../contract/batch';
import { accountJob } from './accounting';
import { initialProgress, summariseBatch } from './batch-summary';
import type { ImportJob, JobChunk } from './import-job';

const chunk = (id: number, rowCount: number, state: JobChunk['state'], withoutReference = 0): JobChunk => ({
  id, firstPosition: 0, rowCount, firstRow: 1, lastRow: rowCount, withoutReference, state, attempts: 1,
});

function job(chunks: JobChunk[], skipped: number, batches: ImportJob['batches'] = {}): ImportJob {
  return {
    id: 'j', createdAt: 0, updatedAt: 0, finishedAt: null, source: { kind: 'quick-add' }, endpoint: 'file', headers: [], chunkRows: 10,
    serviceUrl: '', rowsRead: chunks.reduce((s, c) => s + c.rowCount, 0) + skipped,
    skippedBeforeSend: Array.from({ length: skipped }, (_, i) => ({ rowNumber: i, reason: i === 0 ? 'excluded by you' : 'tracking_number is empty' })),
    chunks, nextChunkId: chunks.length, batches, runState: 'running', pausedReason: null, notify: false,
  };
}

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

describe('accountJob', () => {
  it('rows read = sent + skipped (with reasons) + not settled; sent = Σ total_requests', () => {
    const progress = initialProgress(batch('b1', [{ creation: 'created' }, { creation: 'created' }], 'processing'), 0, 0);
    const j = job(
      [
        chunk(0, 2, { status: 'accepted', batchId: 'b1', at: 0 }),
        chunk(1, 3, { status: 'rejected', error: 'The file is unreadable.', httpStatus: 422, at: 0 }),
        chunk(2, 4, { status: 'unknown', error: 'No answer', at: 0 }, 3),
        chunk(3, 5, { status: 'skipped', reason: 'cancelled by you before it was sent', at: 0 }),
        chunk(4, 6, { status: 'pending' }),
      ],
      3,
      { b1: progress },
    );
    const a = accountJob(j);
    expect(a).toMatchObject({ read: 23, sent: 2, skipped: 11, toSend: 6, unknown: 4, unknownWithoutReference: 3, totalRequests: 2, readAddsUp: true, sentMatchesBatches: true });
    expect(a.skipReasons).toEqual([
      { reason: 'cancelled by you before it was sent', rows: 5 },
      { reason: 'refused by the service: The file is unreadable.', rows: 3 },
      { reason: 'tracking_number is empty', rows: 2 },
      { reason: 'excluded by you', rows: 1 },
    ]);
  });

  it('shows a batch that answered for fewer rows than were sent', () => {
    const progress = { ...initialProgress(batch('b1', [{ creation: 'created' }]), 0, 0), total: 1 };
    const a = accountJob(job([chunk(0, 2, { status: 'accepted', batchId: 'b1', at: 0 })], 0, { b1: progress }));
    expect(a.sentMatchesBatches).toBe(false);
  });
});

describe('summariseBatch', () => {
  it('counts outcomes and matches items to rows by row_number, else by position', () => {
    const b = batch('b1', [
      { row_number: 2, creation: 'updated', warnings: 1 },
      { row_number: 1, creation: 'created', tracking: 'failed' },
      { row_number: 3, creation: 'failed' },
    ]);
    const { progress, outcome } = summariseBatch(b, [10, 11, 12], initialProgress(b, 0, 0), 'j', 5);
    expect(progress.counts).toEqual({ created: 1, updated: 1, failed: 1, withWarnings: 1, trackingFailed: 1 });
    expect(progress.unmatchedItems).toBe(0);
    expect(progress.problems).toEqual([
      { rowNumber: 11, level: 'warning', column: 'assignees', message: 'not a member' },
      { rowNumber: 12, level: 'error', column: 'carrier', message: 'carrier is not supported' },
    ]);
    expect(outcome?.items.map((item) => [item?.rowNumber, item?.creationStatus])).toEqual([[10, 'created'], [11, 'updated'], [12, 'failed']]);
  });

  it('without row_number, item i is row i', () => {
    const b = batch('b1', [{ creation: 'created' }, { creation: 'failed' }]);
    const { outcome, progress } = summariseBatch(b, [7, 9], initialProgress(b, 0, 0), 'j', 5);
    expect(outcome?.items.map((item) => item?.rowNumber)).toEqual([7, 9]);
    expect(progress.unmatchedItems).toBe(0);
  });

  it('counts an item given twice, or a sent row with no item, as unmatched', () => {
    const b = batch('b1', [{ row_number: 1, creation: 'created' }, { row_number: 1, creation: 'created' }]);
    const { progress } = summariseBatch(b, [1, 2], initialProgress(b, 0, 0), 'j', 5);
    expect(progress.unmatchedItems).toBe(2); // the duplicate, and row 2 with no item
  });

  it('counts only rows that are final while the batch processes, and keeps no outcome yet', () => {
    const b = { ...batch('b1', [{ creation: 'created' }, { creation: 'processing', tracking: 'processing' }], 'processing'), completed_requests: 1 };
    const previous = initialProgress(b, 0, 0);
    const { progress, outcome } = summariseBatch(b, [1, 2], { ...previous, completed: 0 }, 'j', 9);
    expect(progress.counts.created).toBe(1);
    expect(progress.lastMovedAt).toBe(9);
    expect(progress.finishedAt).toBeNull();
    expect(outcome).toBeNull();
  });
});
