import { describe, expect, it } from 'vitest';
import { accountJob } from './accounting';
import { applyDigest, initialProgress } from './batch-summary';
import type { BatchDigest, BatchHeadline, ImportJob, JobChunk } from './import-job';

const chunk = (id: number, rowCount: number, state: JobChunk['state'], withoutReference = 0): JobChunk => ({
  id, firstPosition: 0, rowCount, firstRow: 1, lastRow: rowCount, withoutReference, state, attempts: 1,
});

function job(chunks: JobChunk[], skipped: number, batches: ImportJob['batches'] = {}): ImportJob {
  return {
    id: 'j', createdAt: 0, updatedAt: 0, finishedAt: null, source: { kind: 'quick-add' }, endpoint: 'file', headers: [], chunkRows: 10,
    serviceUrl: '', rowsRead: chunks.reduce((s, c) => s + c.rowCount, 0) + skipped, numbering: 'Row',
    skippedBeforeSend: Array.from({ length: skipped }, (_, i) => ({ rowNumber: i, reason: i === 0 ? 'excluded by you' : 'tracking_number is empty' })),
    chunks, nextChunkId: chunks.length, batches, runState: 'running', pausedReason: null, notify: false,
  };
}

const headline = (id: string, rows: number, status = 'completed'): BatchHeadline => ({ id, status, total: rows, completed: rows, failureReason: null });

describe('accountJob', () => {
  it('rows read = sent + skipped (with reasons) + not settled; sent = Σ total_requests', () => {
    const progress = initialProgress(headline('b1', 2, 'processing'), 0, 0);
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
    const progress = { ...initialProgress(headline('b1', 1), 0, 0), total: 1 };
    const a = accountJob(job([chunk(0, 2, { status: 'accepted', batchId: 'b1', at: 0 })], 0, { b1: progress }));
    expect(a.sentMatchesBatches).toBe(false);
  });
});

describe('applyDigest', () => {
  const digest = (status: string, completed: number, items: BatchDigest['items']): BatchDigest => ({
    ...headline('b1', 2, status), completed, counts: { created: completed, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0 },
    problems: [], problemCount: 0, unmatchedItems: 0, items,
  });

  it('keeps no outcome while the batch processes, and notes when it last moved', () => {
    const previous = { ...initialProgress(headline('b1', 2, 'processing'), 3, 0), completed: 0 };
    const { progress, outcome } = applyDigest(previous, digest('processing', 1, null), 'j', 9);
    expect(progress).toMatchObject({ completed: 1, lastMovedAt: 9, lastPolledAt: 9, finishedAt: null });
    expect(outcome).toBeNull();
    expect(applyDigest(progress, digest('processing', 1, null), 'j', 20).progress.lastMovedAt).toBe(9);
  });

  it('a final digest finishes the batch and gives its outcome for the chunk', () => {
    const item = { rowNumber: 4, creationStatus: 'created', trackingStatus: 'succeeded', shipmentId: 's', reference: null, problems: [] };
    const { progress, outcome } = applyDigest(initialProgress(headline('b1', 2, 'processing'), 3, 0), digest('completed', 2, [item, null]), 'j', 9);
    expect(progress.finishedAt).toBe(9);
    expect(outcome).toEqual({ jobId: 'j', batchId: 'b1', chunkId: 3, status: 'completed', failureReason: null, items: [item, null] });
  });
});
