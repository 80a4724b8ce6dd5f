import { describe, expect, it } from 'vitest';
import type { BatchProgress, ChunkState, ImportJob } from '../../jobs/import-job';
import { describeJobState, describeSource, formatTime, formatTimeParts, jobActions, jobCounts } from './job-summary';

function job(states: ChunkState[], batches: Record<string, Partial<BatchProgress>> = {}, runState: ImportJob['runState'] = 'running'): ImportJob {
  return {
    id: 'j', createdAt: 1, updatedAt: 1, finishedAt: null, source: { kind: 'quick-add' }, endpoint: 'list', headers: [], chunkRows: 10, serviceUrl: '',
    rowsRead: states.length * 10, numbering: 'Row', skippedBeforeSend: [],
    chunks: states.map((state, id) => ({ id, firstPosition: id * 10, rowCount: 10, firstRow: id * 10 + 1, lastRow: id * 10 + 10, withoutReference: 0, state, attempts: 1 })),
    nextChunkId: states.length,
    batches: Object.fromEntries(Object.entries(batches).map(([id, b]) => [id, { finishedAt: null, status: 'processing', counts: { created: 0, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0 }, ...b } as BatchProgress])),
    runState, pausedReason: null, notify: false,
  };
}

const accepted = (batchId: string): ChunkState => ({ status: 'accepted', batchId, at: 1 });

describe('jobCounts', () => {
  it('counts rows as the job page does: sent, skipped (before sending, refused or skipped), and what the batches made', () => {
    const counted = job(
      [accepted('a'), { status: 'rejected', error: 'too large', httpStatus: 413, at: 1 }, { status: 'skipped', reason: 'by you', at: 1 }, { status: 'unknown', error: 'network', at: 1 }],
      { a: { finishedAt: 2, status: 'completed', counts: { created: 6, updated: 3, failed: 1, withWarnings: 2, trackingFailed: 0 } } },
    );
    const withSkipped = { ...counted, rowsRead: 42, skippedBeforeSend: [{ rowNumber: 7, reason: 'excluded by you' }, { rowNumber: 9, reason: 'excluded by you' }] };
    expect(jobCounts(withSkipped)).toEqual({ read: 42, sent: 10, skipped: 22, created: 6, updated: 3, failed: 1 });
  });
});

describe('describeJobState', () => {
  it('says watching while accepted batches process, finished when they are done', () => {
    expect(describeJobState(job([accepted('a'), accepted('b')], { a: { finishedAt: 2 }, b: {} }), '')).toMatchObject({ word: 'Processing', detail: '1 batch processing.' });
    expect(describeJobState(job([accepted('a')], { a: { finishedAt: 2, status: 'completed' } }, 'finished'), null)).toMatchObject({ word: 'Finished', tone: 'success' });
  });

  it('waits for the user when a request lost its answer, and offers cancel', () => {
    const waiting = job([accepted('a'), { status: 'unknown', error: 'network', at: 1 }], { a: { finishedAt: 2 } });
    expect(describeJobState(waiting, '')).toMatchObject({ word: 'Needs your decision', detail: '1 request lost its answer: open the job to resend or skip.' });
    expect(jobActions(waiting)).toEqual({ canCancel: true, canResume: false });
  });

  it('counts a refused request and a failed batch as failures', () => {
    const refused = job([{ status: 'rejected', error: 'too large', httpStatus: 413, at: 1 }, accepted('a')], { a: { finishedAt: 2, status: 'failed' } }, 'finished');
    expect(describeJobState(refused, '')).toMatchObject({ word: 'Finished with failures', detail: '1 request refused, 1 batch failed.' });
  });

  it('says a job with work left waits for a connection to its service, in the job page’s words', () => {
    const running = job([accepted('a'), { status: 'pending' }], { a: {} });
    expect(describeJobState(running, null)).toMatchObject({ word: 'Waiting for a connection', tone: 'warning', detail: 'It resumes once this browser is connected to this console’s service.' });
    expect(describeJobState({ ...running, serviceUrl: 'https://api.example.com' }, '')).toMatchObject({ detail: 'It resumes once this browser is connected to api.example.com.' });
    expect(describeJobState(running, '')).toMatchObject({ word: 'Sending' });
  });

  it('says a cancelled job still has accepted batches finishing', () => {
    const cancelled = job([accepted('a'), { status: 'skipped', reason: 'cancelled', at: 1 }], { a: {} }, 'cancelled');
    expect(describeJobState(cancelled, '')).toMatchObject({ word: 'Cancelled', detail: 'Nothing more is sent; 1 batch already accepted still finishing.' });
    expect(jobActions(cancelled)).toEqual({ canCancel: false, canResume: false });
  });
});

describe('describeSource', () => {
  it('names a file with its sheet and size, a quick add, and a retry', () => {
    expect(describeSource({ kind: 'file', fileName: 'ships.xlsx', size: 3 * 1024 * 1024, contentHash: null, sheet: 'March' })).toBe('ships.xlsx (sheet March), 3.0 MB');
    expect(describeSource({ kind: 'file', fileName: 'a.csv', size: 900, contentHash: null })).toBe('a.csv, 900 bytes');
    expect(describeSource({ kind: 'retry', jobId: 'x', label: 'a.csv' })).toBe('Retry of a.csv');
  });
});

describe('formatTimeParts', () => {
  it('splits formatTime into its date and its hour, the same words', () => {
    const at = Date.UTC(2026, 10, 24, 1, 55);
    const { date, time } = formatTimeParts(at);
    expect(`${date}, ${time}`).toBe(formatTime(at));
    expect(time).toMatch(/^\d{2}:\d{2}$/);
  });
});
