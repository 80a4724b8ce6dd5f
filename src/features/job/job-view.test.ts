import { describe, expect, it } from 'vitest';
import type { ImportJob, RowProblemRecord } from '../../jobs/import-job';
import { problemLines, uploadWaitMs, viewJob } from './job-view';

const NOW = 1_000_000;

function job(overrides: Partial<ImportJob>): ImportJob {
  return {
    id: 'j', createdAt: 0, updatedAt: 0, finishedAt: null, source: { kind: 'file', fileName: 'a.csv', size: null, contentHash: null }, endpoint: 'file',
    headers: [], chunkRows: 2, serviceUrl: '', rowsRead: 4, numbering: 'Line', skippedBeforeSend: [], nextChunkId: 2, batches: {}, runState: 'running', pausedReason: null, notify: false,
    chunks: [
      { id: 0, firstPosition: 0, rowCount: 2, firstRow: 2, lastRow: 3, withoutReference: 0, state: { status: 'accepted', batchId: 'b', at: 0 }, attempts: 1 },
      { id: 1, firstPosition: 2, rowCount: 2, firstRow: 4, lastRow: 5, withoutReference: 1, state: { status: 'pending' }, attempts: 0 },
    ],
    ...overrides,
  };
}

const progress = (completed: number, lastMovedAt: number) => ({
  batchId: 'b', chunkId: 0, status: 'processing', total: 2, completed,
  counts: { created: completed, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0 },
  problems: [], problemCount: 0, acceptedAt: 0, lastPolledAt: lastMovedAt, lastMovedAt, finishedAt: null, failureReason: null, unmatchedItems: 0,
});

describe('viewJob', () => {
  it('is sending while chunks are pending, with the share of rows processed', () => {
    const view = viewJob(job({ batches: { b: progress(1, NOW) } }), NOW);
    expect(view).toMatchObject({ phase: 'sending', fraction: 0.25, chunksAccepted: 1, chunksTotal: 2, counts: { created: 1 } });
  });

  it('needs the user when a chunk is unknown, and shows a batch stuck for 5 minutes as stalled', () => {
    const base = job({ batches: { b: progress(1, NOW - 300_000) } });
    base.chunks[1]!.state = { status: 'unknown', error: 'lost', at: 0 };
    const view = viewJob(base, NOW);
    expect(view.phase).toBe('needs-you');
    expect(view.batches[0]!.stalled).toBe(true);
  });
});

describe('problemLines', () => {
  const reason = 'Row 2 (row_number, counting data rows from 1, the header not counted) holds the sandbox test number CMDU240000500, which makes the batch fail.';
  const problems: RowProblemRecord[] = [
    { rowNumber: 3, level: 'tracking-failed', shipmentId: 's1', reason: 'not_found' },
    { rowNumber: 4, level: 'tracking-failed', shipmentId: 's2', reason: null },
    { rowNumber: 5, level: 'warning', column: 'assignees', message: 'nobody@example.com is not a member of this workspace' },
    { rowNumber: 9, level: 'error', column: null, message: reason, serviceRows: { 1: 9 } },
    { rowNumber: 10, level: 'error', column: null, message: `The batch failed before this row was processed: ${reason}`, serviceRows: { 1: 9 } },
  ];
  const followUp = { batchId: 'b', pending: ['s2'], failures: {}, checks: 0, lastCheckAt: null, nextPage: 1 };

  it('gives a tracking failure its reason in words, or says it is being looked up while the follow-up has its shipment', () => {
    const lines = problemLines({ trackingFollowUps: [followUp] }, problems, 'Line');
    expect(lines.slice(0, 3)).toEqual([
      { rowNumber: 3, level: 'Tracking failed', column: null, message: 'Reason: not found.' },
      { rowNumber: 4, level: 'Tracking failed', column: null, message: 'The reason is being looked up.' },
      { rowNumber: 5, level: 'Warning', column: 'assignees', message: 'nobody@example.com is not a member of this workspace' },
    ]);
    // Nothing looks it up any more: the page does not say something is.
    expect(problemLines({ trackingFollowUps: [] }, problems, 'Line')[1]?.message).toBe('Its reason is not known.');
  });

  it('puts the file’s number beside each row_number the service quotes, in the job’s words', () => {
    const lines = problemLines({}, problems, 'Line');
    expect(lines[3]).toEqual({
      rowNumber: 9, level: 'Error', column: null,
      message: 'Row 2 (row_number, counting data rows from 1, the header not counted; Line 9 of the file) holds the sandbox test number CMDU240000500, which makes the batch fail.',
    });
    expect(lines[4]?.message).toContain('processed: Row 2 (row_number, counting data rows from 1, the header not counted; Line 9 of the file)');
    expect(problemLines({}, problems, 'Row')[3]?.message).toContain('; Row 9 of the file)');
  });
});

describe('uploadWaitMs', () => {
  it('is 0 while the import bucket has room, else the windows the uploads ahead need', () => {
    const budget = (remaining: number) => ({ general: null, import: { limit: 2, remaining, resetAt: NOW + 4_000 }, pausedUntil: 0 });
    expect(uploadWaitMs(2, budget(2), NOW)).toBe(0);
    expect(uploadWaitMs(3, budget(0), NOW)).toBe(8_000);
    expect(uploadWaitMs(0, budget(0), NOW)).toBe(0);
  });
});
