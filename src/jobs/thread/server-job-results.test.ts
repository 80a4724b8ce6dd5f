import { describe, expect, it } from 'vitest';
import type { BatchOutcome, ChunkPayload, ImportJob } from '../import-job';
import { MemoryJobStorage } from '../storage/memory-storage';
import { ResultsSessions } from './results-session';
import { finishedJob, item, sentBatch } from './test-results';

const headers = ['tracking_number', 'tracking_type', 'carrier'];

/** A JSON answer of the console's server, as the thread receives it. */
const answer = (body: unknown) => new TextEncoder().encode(JSON.stringify(body)).buffer;

function twoBatches() {
  const first = sentBatch(0, headers, [['MSCU1234566', 'container', 'MSCU'], ['MAEU240000404', 'bill_of_lading', 'MAEU']], [item(2), item(3, { creationStatus: 'updated' })]);
  const second = sentBatch(
    1,
    headers,
    [['CMDU240000500', 'bill_of_lading', 'CMDU']],
    [item(4, { creationStatus: 'failed', shipmentId: null, trackingStatus: 'failed', problems: [{ level: 'error', code: 'invalid', column: 'carrier', message: 'Unknown carrier.' }] })],
  );
  return { first, second };
}

/** The job as the console's server keeps it: runs there, so this browser's storage has none of it. */
function serverJob(batches: { outcome: BatchOutcome; payload: ChunkPayload }[], finished: string[], change: Partial<ImportJob> = {}): ImportJob {
  const { job } = finishedJob(headers, batches, { runsOn: 'console-server', ...change });
  for (const [batchId, batch] of Object.entries(job.batches)) job.batches[batchId] = { ...batch, chunkId: Number(batchId.slice('batch-'.length)), finishedAt: finished.includes(batchId) ? 2 : null };
  return job;
}

/** What the page had the thread fetch of one finished batch: its chunk's payload, then its outcome. */
function readBatch(sessions: ResultsSessions, batch: { outcome: BatchOutcome; payload: ChunkPayload }) {
  return [sessions.readForPage({ kind: 'server-payload', jobId: 'job-1' }, answer(batch.payload)), sessions.readForPage({ kind: 'server-outcome', jobId: 'job-1' }, answer(batch.outcome))];
}

describe('The results thread opens a job the console’s server runs from what it fetched of it', () => {
  it('joins each fetched outcome to its chunk’s rows, and grows as the job’s batches finish', async () => {
    const { first, second } = twoBatches();
    const sessions = new ResultsSessions(() => new MemoryJobStorage());

    expect(readBatch(sessions, first)).toEqual([{ serverJob: { rows: 2 } }, { serverJob: { rows: 2 } }]);
    const opened = await sessions.answer('results-open-server-job', { session: 1, job: serverJob([first, second], ['batch-0']), numbering: 'Line' });
    expect(opened).toMatchObject({ columns: headers, batches: 1, counts: { all: 2, created: 1, updated: 1, failed: 0 } });
    expect((await sessions.rows({ session: 1, filter: 'all', from: 0, to: 5 })).rows).toMatchObject([
      { rowNumber: 2, batchId: 'batch-0', values: ['MSCU1234566', 'container', 'MSCU'] },
      { rowNumber: 3, batchId: 'batch-0', values: ['MAEU240000404', 'bill_of_lading', 'MAEU'] },
    ]);

    // The second batch finishes: the page has the thread fetch it, then opens the same results again.
    readBatch(sessions, second);
    const grown = await sessions.answer('results-open-server-job', { session: 1, job: serverJob([first, second], ['batch-0', 'batch-1']), numbering: 'Line' });
    expect(grown).toMatchObject({ batches: 2, counts: { all: 3, failed: 1 } });
    expect(grown.version).toBeGreaterThan(opened.version);
    const [failed] = (await sessions.rows({ session: 1, filter: 'failed', from: 0, to: 5 })).rows;
    expect(failed).toMatchObject({ rowNumber: 4, batchId: 'batch-1', values: ['CMDU240000500', 'bill_of_lading', 'CMDU'], item: { problems: [{ column: 'carrier', message: 'Unknown carrier.' }] } });
  });

  it('joins an outcome again once the tracking follow-up rewrote it', async () => {
    const { first, second } = twoBatches();
    const sessions = new ResultsSessions(() => new MemoryJobStorage());
    readBatch(sessions, first);
    const pending = { trackingFollowUps: [{ batchId: 'batch-0', pending: ['s2'] }] } as Partial<ImportJob>;
    const before = await sessions.answer('results-open-server-job', { session: 1, job: serverJob([first, second], ['batch-0'], pending), numbering: 'Line' });
    expect(before.counts['tracking-failed']).toBe(0);

    const rewritten = { ...first.outcome, items: [item(2, { trackingStatus: 'failed' }), first.outcome.items[1]!] };
    sessions.readForPage({ kind: 'server-outcome', jobId: 'job-1' }, answer(rewritten));
    const after = await sessions.answer('results-open-server-job', { session: 1, job: serverJob([first, second], ['batch-0']), numbering: 'Line' });
    expect(after.counts['tracking-failed']).toBe(1);
  });

  it('refuses an answer that is not the job’s, or not an outcome, with a sentence', () => {
    const { first } = twoBatches();
    const sessions = new ResultsSessions(() => new MemoryJobStorage());
    expect(() => sessions.readForPage({ kind: 'server-outcome', jobId: 'job-2' }, answer(first.outcome))).toThrow('The console’s server answered with an outcome of job job-1, not job-2.');
    expect(() => sessions.readForPage({ kind: 'server-outcome', jobId: 'job-1' }, answer({ error: 'nope' }))).toThrow(/^The console’s server answered in an unexpected shape at jobId/);
    expect(() => sessions.readForPage({ kind: 'server-payload', jobId: 'job-1' }, new TextEncoder().encode('<html>').buffer)).toThrow('The console’s server answered with something that is not JSON.');
  });

  it('says to read them again when it holds nothing of a job whose batches finished', async () => {
    const { first, second } = twoBatches();
    const sessions = new ResultsSessions(() => new MemoryJobStorage());
    await expect(sessions.answer('results-open-server-job', { session: 1, job: serverJob([first, second], ['batch-0']), numbering: 'Line' })).rejects.toThrow(
      'The results of this job are no longer held by the results thread: read them again.',
    );
    // No batch finished yet: no rows, no error.
    await expect(sessions.answer('results-open-server-job', { session: 2, job: serverJob([first, second], []), numbering: 'Line' })).resolves.toMatchObject({ counts: { all: 0 } });
  });

  it('lets go of what it read for a job once no open results show it: a page opening them again reads them again', async () => {
    const { first, second } = twoBatches();
    const sessions = new ResultsSessions(() => new MemoryJobStorage());
    const job = serverJob([first, second], ['batch-0']);
    readBatch(sessions, first);
    await sessions.answer('results-open-server-job', { session: 1, job, numbering: 'Line' });
    await sessions.answer('results-open-server-job', { session: 2, job, numbering: 'Line' });
    await sessions.answer('results-close', { session: 1 });
    // Still shown by the other page's results.
    await expect(sessions.answer('results-open-server-job', { session: 3, job, numbering: 'Line' })).resolves.toMatchObject({ counts: { all: 2 } });
    await sessions.answer('results-close', { session: 2 });
    await sessions.answer('results-close', { session: 3 });
    await expect(sessions.answer('results-open-server-job', { session: 4, job, numbering: 'Line' })).rejects.toThrow('read them again');
  });
});
