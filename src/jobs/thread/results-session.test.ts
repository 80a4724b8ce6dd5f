import Papa from 'papaparse';
import { describe, expect, it, vi } from 'vitest';
import type { Batch } from '../../contract/batch';
import type { ImportJob } from '../import-job';
import { NO_ITEM_MESSAGE, itemErrors, itemWarnings } from '../result-item';
import { MemoryJobStorage } from '../storage/memory-storage';
import { RESULT_FILTERS } from './results-protocol';
import { HELD_READS, ResultsSessions, type ResultsSource } from './results-session';
import { finishedJob, item, sentBatch, storedJob } from './test-results';

const headers = ['tracking_number', 'tracking_type', 'carrier', 'name', 'assignees'];

function sandboxBatch() {
  return sentBatch(
    0,
    headers,
    [
      ['MSCU1234566', 'container', 'MSCU', '=SUM(A1)', ''],
      ['MAEU240000404', 'bill_of_lading', 'MAEU', 'b', ''],
      ['CMDU240000500', 'bill_of_lading', 'CMDU', '=1+1', ''],
      ['MSCU1234566', 'container', 'MSCU', 'd', 'nobody@example.com'],
    ],
    [
      item(2),
      item(3, { trackingStatus: 'failed' }),
      item(4, { creationStatus: 'failed', trackingStatus: 'failed', shipmentId: null, problems: [{ level: 'error', code: 'batch_failed', column: null, message: 'The batch stopped.' }] }),
      item(5, { creationStatus: 'updated', problems: [{ level: 'warning', code: 'invalid_input', column: 'assignees', message: 'nobody@example.com is no member.' }] }),
    ],
  );
}

async function openJob(job: ImportJob, storage: ResultsSource, session = 1) {
  const sessions = new ResultsSessions(() => storage);
  const summary = await sessions.openJob({ session, database: 'db', jobId: job.id, numbering: 'Line' });
  return { sessions, summary };
}

describe('ResultsSessions: a job’s results in the thread', () => {
  it('joins each item to its row as sent, counts every filter and serves the rows a filter shows', async () => {
    const { job, batches } = finishedJob(headers, [sandboxBatch()]);
    const { sessions, summary } = await openJob(job, await storedJob(job, batches));

    expect(summary).toMatchObject({ session: 1, columns: headers, batches: 1, numbering: 'Line' });
    expect(summary.counts).toEqual({
      failed: 1,
      warnings: 1,
      created: 2,
      updated: 1,
      // The failed row's tracking is `failed` too, but it created nothing: it counts as failed only.
      'tracking-failed': 1,
      all: 4,
    });
    const all = await sessions.rows({ session: 1, filter: 'all', from: 0, to: 10 });
    expect(all.version).toBe(summary.version);
    expect(all.rows.map((row) => row.values[0])).toEqual(['MSCU1234566', 'MAEU240000404', 'CMDU240000500', 'MSCU1234566']);
    const [failed] = (await sessions.rows({ session: 1, filter: 'failed', from: 0, to: 1 })).rows;
    expect(failed).toMatchObject({ rowNumber: 4, batchId: 'batch-0', batchRow: 3, values: ['CMDU240000500', 'bill_of_lading', 'CMDU', '=1+1', ''] });
    expect(itemErrors(failed!.item)).toEqual([expect.objectContaining({ column: null, message: 'The batch stopped.' })]);
    const [warned] = (await sessions.rows({ session: 1, filter: 'warnings', from: 0, to: 5 })).rows;
    expect(itemWarnings(warned!.item)).toEqual([expect.objectContaining({ column: 'assignees', message: 'nobody@example.com is no member.' })]);
    expect((await sessions.rows({ session: 1, filter: 'updated', from: 1, to: 5 })).rows).toEqual([]);
  });

  it('counts a row the service returned no item for as failed, with a sentence saying so', async () => {
    const { job, batches } = finishedJob(headers, [sentBatch(0, headers, [['A', 'container', '', '', ''], ['B', 'container', '', '', '']], [item(1), null], [1, 2])]);
    const { sessions } = await openJob(job, await storedJob(job, batches));
    const [row] = (await sessions.rows({ session: 1, filter: 'failed', from: 0, to: 1 })).rows;
    expect(row).toMatchObject({ rowNumber: 2, values: ['B', 'container', '', '', ''] });
    expect(itemErrors(row!.item)).toEqual([{ column: null, message: NO_ITEM_MESSAGE }]);
  });

  it('reads a chunk as comma-separated, quoted line breaks and tabs and all', async () => {
    const rows = Array.from({ length: 600 }, (_, r) => [`MSCU${r}`, 'container', 'MSCU', `a\tb\r\nc "d"\t${r}`, '']);
    const { job, batches } = finishedJob(headers, [sentBatch(0, headers, rows, rows.map((_, r) => item(r + 2)))]);
    const { sessions } = await openJob(job, await storedJob(job, batches));
    expect((await sessions.rows({ session: 1, filter: 'all', from: 550, to: 551 })).rows[0]?.values).toEqual(['MSCU550', 'container', 'MSCU', 'a\tb\r\nc "d"\t550', '']);
  });

  it('puts a chunk’s columns by name, a JSON list’s fields (custom fields as cf_) as columns, and widens every row', async () => {
    const csv = sentBatch(0, ['tracking_type', 'tracking_number'], [['container', 'X1']], [item(1)]);
    const json = {
      outcome: { jobId: 'job-1', batchId: 'batch-1', chunkId: 1, status: 'completed', failureReason: null, items: [item(2)] },
      payload: { jobId: 'job-1', chunkId: 1, rowNumbers: [2], body: { format: 'json' as const, requests: [{ tracking_number: 'X2', tracking_type: 'booking', tags: ['a', 'b'], custom_fields: { po_number: 'PO 1' } }] } },
    };
    const { job, batches } = finishedJob(['tracking_number', 'tracking_type'], [csv, json]);
    const { sessions, summary } = await openJob(job, await storedJob(job, batches));
    expect(summary.columns).toEqual(['tracking_number', 'tracking_type', 'tags', 'cf_po_number']);
    expect((await sessions.rows({ session: 1, filter: 'all', from: 0, to: 2 })).rows.map((row) => row.values)).toEqual([
      ['X1', 'container', '', ''],
      ['X2', 'booking', 'a,b', 'PO 1'],
    ]);
  });

  it('grows with the job: a batch that finishes later is read and joined alone, in its chunk’s place', async () => {
    const first = sentBatch(0, headers, [['A', 'container', '', '', '']], [item(1)]);
    const second = sentBatch(1, headers, [['B', 'container', '', '', '']], [item(2, { creationStatus: 'failed', shipmentId: null, problems: [{ level: 'error', code: 'x', column: null, message: 'No.' }] })]);
    const { job, batches } = finishedJob(headers, [first, second]);
    // Only the second chunk's batch has finished so far.
    const running: ImportJob = { ...job, batches: { 'batch-1': job.batches['batch-1']! }, runState: 'running', finishedAt: null };
    const storage = await storedJob(running, batches);
    const read = vi.spyOn(storage, 'outcome');
    const { sessions, summary } = await openJob(running, storage);
    expect(summary.counts.all).toBe(1);
    expect(read.mock.calls.map((call) => call[1])).toEqual(['batch-1']);

    await storage.update(job.id, () => ({ job }));
    const grown = await sessions.openJob({ session: 1, database: 'db', jobId: job.id, numbering: 'Line' });
    expect(grown.counts).toMatchObject({ all: 2, failed: 1 });
    expect(grown.version).toBeGreaterThan(summary.version);
    expect(read.mock.calls.map((call) => call[1])).toEqual(['batch-1', 'batch-0']);
    expect((await sessions.rows({ session: 1, filter: 'all', from: 0, to: 2 })).rows.map((row) => row.values[0])).toEqual(['A', 'B']);
  });

  it('joins a batch again when the tracking follow-up has rewritten its outcome', async () => {
    const batch = sentBatch(0, headers, [['A', 'container', '', '', '']], [item(1, { trackingStatus: 'processing' })]);
    const { job, batches } = finishedJob(headers, [batch], {
      trackingFollowUps: [{ batchId: 'batch-0', pending: ['s1'], failures: {}, checks: 0, lastCheckAt: null, nextPage: 1 }],
    });
    const storage = await storedJob(job, batches);
    const { sessions, summary } = await openJob(job, storage);
    expect(summary.counts['tracking-failed']).toBe(0);
    await storage.saveOutcome({ ...batch.outcome, items: [item(1, { trackingStatus: 'failed', trackingFailureReason: 'not_found' })] });
    await storage.update(job.id, (stored) => ({ job: { ...stored, trackingFollowUps: [{ ...stored.trackingFollowUps![0]!, pending: [] }] } }));
    const settled = await sessions.openJob({ session: 1, database: 'db', jobId: job.id, numbering: 'Line' });
    expect(settled.counts['tracking-failed']).toBe(1);
    const file = await sessions.exportFile({ session: 1, filter: 'tracking-failed', format: 'csv', withWarnings: false, sheetName: 'x' });
    expect((await file.file.text()).split('\r\n')[1]).toBe('A,container,,,,Tracking failed: not_found');
  });

  it('writes a download in the thread: columns as sent, an error column, a warning column where chosen, formulas escaped', async () => {
    const { job, batches } = finishedJob(headers, [sandboxBatch()]);
    const { sessions } = await openJob(job, await storedJob(job, batches));
    const failed = await sessions.exportFile({ session: 1, filter: 'failed', format: 'csv', withWarnings: false, sheetName: 'failed rows' });
    expect(failed.rows).toBe(1);
    expect(failed.file.type).toBe('text/csv;charset=utf-8');
    expect(Papa.parse<string[]>(await failed.file.text(), { newline: '\r\n' }).data).toEqual([
      [...headers, 'error'],
      ['CMDU240000500', 'bill_of_lading', 'CMDU', "'=1+1", '', 'The batch stopped.'],
    ]);
    const warnings = await sessions.exportFile({ session: 1, filter: 'warnings', format: 'csv', withWarnings: false, sheetName: 'w' });
    const warningLines = (await warnings.file.text()).split('\r\n');
    expect(warningLines[0]).toBe(`${headers.join(',')},error,warning`);
    // Its error cell is empty: no error, and its tracking did not fail.
    expect(warningLines[1]).toBe('MSCU1234566,container,MSCU,d,nobody@example.com,,assignees: nobody@example.com is no member.');
    const tracking = await sessions.exportFile({ session: 1, filter: 'tracking-failed', format: 'csv', withWarnings: true, sheetName: 't' });
    expect((await tracking.file.text()).split('\r\n')[1]).toBe('MAEU240000404,bill_of_lading,MAEU,b,,Tracking failed.,');
    const xlsx = await sessions.exportFile({ session: 1, filter: 'failed', format: 'xlsx', withWarnings: false, sheetName: 'failed rows' });
    expect(xlsx.file.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(String.fromCharCode(...new Uint8Array(await xlsx.file.arrayBuffer()).subarray(0, 2))).toBe('PK');
  }, 20_000);

  it('hands fix & retry the rows with their numbers and the service’s notes', async () => {
    const { job, batches } = finishedJob(headers, [sandboxBatch()]);
    const { sessions } = await openJob(job, await storedJob(job, batches));
    expect(await sessions.retryRows({ session: 1, filter: 'failed' })).toEqual({
      csv: `${headers.join(',')}\r\nCMDU240000500,bill_of_lading,CMDU,=1+1,`,
      numbering: 'Line',
      rowNumbers: [4],
      notes: [[{ level: 'error', column: null, message: 'The batch stopped.' }]],
    });
    expect(await sessions.retryRows({ session: 1, filter: 'tracking-failed' })).toMatchObject({ rowNumbers: [3], notes: [[{ level: 'error', column: null, message: 'Tracking failed.' }]] });
  });

  it('keeps every filter a precomputed index at 100,000 items, and serves the last rows', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => [`N${i}`, 'container', 'MSCU', `name ${i}`, '']);
    const list = Array.from({ length: 20 }, (_, chunk) =>
      sentBatch(chunk, headers, rows, rows.map((_, i) => item(chunk * 5000 + i + 1, i % 4 === 0 ? { creationStatus: 'failed', shipmentId: null } : {}))),
    );
    const { job, batches } = finishedJob(headers, list);
    const { sessions, summary } = await openJob(job, await storedJob(job, batches));
    expect(Object.fromEntries(RESULT_FILTERS.map((filter) => [filter, summary.counts[filter]]))).toMatchObject({ all: 100_000, failed: 25_000, created: 75_000 });
    const last = await sessions.rows({ session: 1, filter: 'failed', from: 24_998, to: 25_010 });
    expect(last.rows.map((row) => row.rowNumber)).toEqual([99_993, 99_997]);
    expect(last.rows[1]?.values[0]).toBe('N4996');
  }, 30_000);

  it('says why when the job is gone, and that closed results must be opened again', async () => {
    const { job } = finishedJob(headers, [sandboxBatch()]);
    const sessions = new ResultsSessions(() => new MemoryJobStorage());
    await expect(sessions.openJob({ session: 1, database: 'db', jobId: job.id, numbering: 'Line' })).rejects.toThrow('The job is no longer kept in this browser.');
    await expect(sessions.rows({ session: 1, filter: 'all', from: 0, to: 1 })).rejects.toThrow('These results are no longer open: open them again.');
  });
});

describe('ResultsSessions: a batch opened by its id', () => {
  const batch: Batch = {
    id: 'b-9',
    status: 'completed',
    created_at: '',
    total_requests: 2,
    completed_requests: 2,
    failure_reason: null,
    results: [
      { id: 'i2', row_number: 2, tracking_type: 'container', tracking_number: 'MSCU2', reference: 'R2', creation_status: 'failed', tracking_status: 'failed', errors: [{ code: 'x', message: 'bad', target: 'carrier' }], warnings: [] },
      { id: 'i1', row_number: 1, tracking_type: 'container', tracking_number: 'MSCU1', creation_status: 'created', tracking_status: 'succeeded', shipment_id: 's1', errors: [], warnings: [] },
    ],
  };

  const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).buffer;

  it('reads a fetched batch to its headline alone and holds its items: the rows are rebuilt from them where the rows as sent are kept nowhere', async () => {
    const sessions = new ResultsSessions(() => new MemoryJobStorage());
    const read = sessions.readForPage({ kind: 'batch-view' }, bytes({ ...batch, created_at: '2026-11-26T10:00:00Z' }));
    expect(read).toEqual({ view: { id: 'b-9', status: 'completed', total: 2, completed: 2, failureReason: null, createdAt: '2026-11-26T10:00:00Z' } });
    expect(JSON.stringify(read)).not.toContain('MSCU');
    const summary = await sessions.openBatch({ session: 2, batchId: 'b-9', owner: { jobId: 'b-9', chunkId: 0 }, rowsAsSent: false, numbering: 'Line' });
    expect(summary).toMatchObject({ columns: ['tracking_number', 'tracking_type', 'reference', 'carrier', 'name'], numbering: 'Row', counts: { all: 2, failed: 1, created: 1 }, failureReason: null });
    const rows = (await sessions.rows({ session: 2, filter: 'all', from: 0, to: 2 })).rows;
    expect(rows.map((row) => [row.rowNumber, row.values[0], row.item?.creationStatus])).toEqual([
      [1, 'MSCU1', 'created'],
      [2, 'MSCU2', 'failed'],
    ]);
  });

  it('uses the rows as sent it read from the team history, with the file’s numbers, in the rows and in the failure reason', async () => {
    const sessions = new ResultsSessions(() => new MemoryJobStorage());
    const failed = { ...batch, status: 'failed', failure_reason: 'Row 2 (row_number, 1-based) has no carrier.' };
    sessions.readForPage({ kind: 'batch-view' }, bytes(failed));
    const rowsAsSent = { rowNumbers: [7, 9], body: { format: 'csv', csv: 'tracking_number,carrier\r\nMSCU1,MSCU\r\nMSCU2,QQQQ' } };
    expect(sessions.readForPage({ kind: 'rows-as-sent', jobId: 'job-7', chunkId: 3 }, bytes(rowsAsSent))).toEqual({ rowsAsSent: { rows: 2 } });
    const summary = await sessions.openBatch({ session: 2, batchId: 'b-9', owner: { jobId: 'job-7', chunkId: 3 }, rowsAsSent: true, numbering: 'Line' });
    expect(summary).toMatchObject({ columns: ['tracking_number', 'carrier'], numbering: 'Line', failureReason: 'Row 2 (row_number, 1-based; Line 9 of the file) has no carrier.' });
    expect((await sessions.rows({ session: 2, filter: 'failed', from: 0, to: 1 })).rows[0]).toMatchObject({ rowNumber: 9, values: ['MSCU2', 'QQQQ'] });
    // Without the rows as sent, the service's own number alone.
    const rebuilt = await sessions.openBatch({ session: 3, batchId: 'b-9', owner: { jobId: 'job-7', chunkId: 3 }, rowsAsSent: false, numbering: 'Line' });
    expect(rebuilt.failureReason).toBe('Row 2 (row_number, 1-based) has no carrier.');
  });

  it('opens the batch as last read: a later poll’s answer replaces the one held', async () => {
    const sessions = new ResultsSessions(() => new MemoryJobStorage());
    sessions.readForPage({ kind: 'batch-view' }, bytes({ ...batch, status: 'processing', completed_requests: 1, results: batch.results.slice(1) }));
    const first = await sessions.openBatch({ session: 2, batchId: 'b-9', owner: { jobId: 'b-9', chunkId: 0 }, rowsAsSent: false, numbering: 'Row' });
    expect(first.counts.all).toBe(1);
    sessions.readForPage({ kind: 'batch-view' }, bytes(batch));
    const second = await sessions.openBatch({ session: 2, batchId: 'b-9', owner: { jobId: 'b-9', chunkId: 0 }, rowsAsSent: false, numbering: 'Row' });
    expect(second.counts).toMatchObject({ all: 2, failed: 1 });
  });

  it('says so when it holds no such batch or rows (never read, or read before the last ones it holds), and when an answer is not what it should be', async () => {
    const sessions = new ResultsSessions(() => new MemoryJobStorage());
    await expect(sessions.openBatch({ session: 2, batchId: 'b-9', owner: { jobId: 'b-9', chunkId: 0 }, rowsAsSent: false, numbering: 'Row' })).rejects.toThrow(
      'Batch b-9 is no longer held by the results thread: read it again.',
    );
    sessions.readForPage({ kind: 'batch-view' }, bytes(batch));
    await expect(sessions.openBatch({ session: 2, batchId: 'b-9', owner: { jobId: 'job-7', chunkId: 3 }, rowsAsSent: true, numbering: 'Row' })).rejects.toThrow(
      'The rows as sent are no longer held by the results thread: read them again.',
    );
    for (let i = 0; i < HELD_READS; i++) sessions.readForPage({ kind: 'batch-view' }, bytes({ ...batch, id: `other-${i}` }));
    await expect(sessions.openBatch({ session: 2, batchId: 'b-9', owner: { jobId: 'b-9', chunkId: 0 }, rowsAsSent: false, numbering: 'Row' })).rejects.toThrow('no longer held');
    await expect(sessions.openBatch({ session: 2, batchId: `other-${HELD_READS - 1}`, owner: { jobId: 'b-9', chunkId: 0 }, rowsAsSent: false, numbering: 'Row' })).resolves.toMatchObject({
      counts: { all: 2 },
    });
    expect(() => sessions.readForPage({ kind: 'rows-as-sent', jobId: 'job-7', chunkId: 3 }, bytes({ rowNumbers: 'no' }))).toThrow('The team history answered in an unexpected shape at rowNumbers');
    expect(() => sessions.readForPage({ kind: 'batch-view' }, new TextEncoder().encode('<html>').buffer)).toThrow('The batch answered with something that is not JSON.');
  });
});
