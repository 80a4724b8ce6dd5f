import { describe, expect, it } from 'vitest';
import { HttpError } from '../../api/api-error';
import { MemoryJobStorage } from '../../jobs/storage/memory-storage';
import { failedBatch, inProcessThread } from '../../jobs/thread/test-results';
import { readBatchView, readRowsAsSent } from './batch-results';

const batch = failedBatch('Row 2 (row_number, 1-based) has no carrier.');
const rowsAsSent = { rowNumbers: [7, 9], body: { format: 'csv', csv: 'tracking_number,carrier\r\nMSCU1,MSCU\r\nMSCU2,QQQQ' } };

/** The service and the console's team history on this origin, recording what was asked. */
function origin() {
  const asked: string[] = [];
  const fetch: typeof globalThis.fetch = (input) => {
    const url = input instanceof Request ? input.url : input.toString();
    asked.push(url);
    const json = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
    if (url === '/api/v1/shipments/imports/b-9') return json(200, batch);
    if (url === '/console/api/jobs/job-7/chunks/3/rows') return json(200, rowsAsSent);
    return json(404, { error: { code: 'not_found', message: 'No such batch.' } });
  };
  return { fetch, asked };
}

const target = { baseUrl: '', apiKey: '' };

describe('The batch page reads a batch by its id through the results thread', () => {
  it('gets the batch’s headline, never its items; the thread holds them and joins them to the rows as sent it read', async () => {
    const service = origin();
    const thread = inProcessThread(new MemoryJobStorage(), service.fetch);

    const view = await readBatchView(target, 'b-9', thread);
    expect(view).toEqual({ id: 'b-9', status: 'failed', total: 2, completed: 2, failureReason: 'Row 2 (row_number, 1-based) has no carrier.', createdAt: '2026-11-26T10:00:00Z' });
    expect(JSON.stringify(view)).not.toMatch(/MSCU|results/);
    const held = await readRowsAsSent(target, { jobId: 'job-7', chunkId: 3 }, thread);
    expect(held).toEqual({ rows: 2 });
    expect(service.asked).toEqual(['/api/v1/shipments/imports/b-9', '/console/api/jobs/job-7/chunks/3/rows']);

    const summary = await thread.request('results-open-batch', { session: 1, batchId: 'b-9', owner: { jobId: 'job-7', chunkId: 3 }, rowsAsSent: true, numbering: 'Line' });
    expect(summary).toMatchObject({ counts: { all: 2, failed: 1 }, failureReason: 'Row 2 (row_number, 1-based; Line 9 of the file) has no carrier.' });
    const { rows } = await thread.request('results-rows', { session: 1, filter: 'failed', from: 0, to: 5 });
    expect(rows).toMatchObject([{ rowNumber: 9, values: ['MSCU2', 'QQQQ'] }]);
  });

  it('fails a batch the service does not know with its 404, as the page tells "No such batch"', async () => {
    const thread = inProcessThread(new MemoryJobStorage(), origin().fetch);
    const failure = await readBatchView(target, 'nope', thread).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HttpError);
    expect((failure as HttpError).status).toBe(404);
  });
});
