import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { act, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BatchOutcome, ChunkPayload, ImportJob } from '../../jobs/import-job';
import { MemoryJobStorage } from '../../jobs/storage/memory-storage';
import type { ResultsSource } from '../../jobs/thread/results-session';
import { finishedJob, inProcessThread, item, sentBatch, storedJob } from '../../jobs/thread/test-results';
import { JobResults, type JobResultsProps } from './job-results';

const headers = ['tracking_number', 'tracking_type', 'carrier', 'name', 'assignees'];

function sandboxOutcomes() {
  return sentBatch(
    0,
    headers,
    [
      ['MSCU1234566', 'container', 'MSCU', '=SUM(A1)', ''],
      ['MAEU240000404', 'bill_of_lading', 'MAEU', 'tracking fails', ''],
      ['CMDU240000500', 'bill_of_lading', 'CMDU', '=1+1', ''],
      ['MSCU7654321', 'container', 'MSCU', 'warned', 'nobody@example.com'],
    ],
    [
      item(2, { shipmentId: 'ship-2' }),
      item(3, { shipmentId: 'ship-3', trackingStatus: 'failed' }),
      item(4, { creationStatus: 'failed', trackingStatus: 'failed', shipmentId: null, problems: [{ level: 'error', code: 'batch_failed', column: 'tracking_number', message: 'The batch stopped at this row.' }] }),
      item(5, { creationStatus: 'updated', shipmentId: 'ship-5', problems: [{ level: 'warning', code: 'invalid_input', column: 'assignees', message: 'nobody@example.com is not a member.' }] }),
    ],
  );
}

let downloads: { name: string; blob: Blob }[] = [];

beforeEach(() => {
  downloads = [];
  // jsdom lays nothing out: give the grid's scroll box a height so the virtualizer shows rows.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
  // Nor does it scroll: the grid scrolls a focused cell into view.
  Element.prototype.scrollIntoView = () => undefined;
  let url = 0;
  const blobs = new Map<string, Blob>();
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (blob: Blob) => (blobs.set(`blob:${++url}`, blob), `blob:${url}`), revokeObjectURL: () => undefined }));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ name: this.download, blob: blobs.get(this.href)! });
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** The job page's results over a job kept in memory, its thread run in this one. */
async function renderResults(
  job: ImportJob,
  batches: { outcome: BatchOutcome; payload: ChunkPayload }[],
  props: Partial<Omit<JobResultsProps, 'job' | 'thread' | 'database'>> = {},
  source?: (storage: ResultsSource) => ResultsSource,
) {
  const storage = await storedJob(job, batches);
  const thread = inProcessThread(source ? source(storage) : storage);
  const root = createRootRoute({ component: Outlet });
  const page = createRoute({ getParentRoute: () => root, path: '/', component: () => <JobResults job={job} thread={thread} database="db" jobs={[job]} {...props} /> });
  const shipments = createRoute({ getParentRoute: () => root, path: '/shipments', component: () => <h1>Shipments</h1> });
  const router = createRouter({ routeTree: root.addChildren([page, shipments]), history: createMemoryHistory({ initialEntries: ['/'] }) });
  render(<RouterProvider router={router} />);
  return thread;
}

// The machine running the suite may be busy: rendering through a router takes a few seconds there.
describe('JobResults', { timeout: 20_000 }, () => {
  it('shows each outcome with its reason and column, filters with counts, and the row as sent', async () => {
    const { job, batches } = finishedJob(headers, [sandboxOutcomes()]);
    await renderResults(job, batches);

    const filters = await screen.findByRole('group', { name: 'Show rows' });
    const names = within(filters).getAllByRole('button').map((button) => button.textContent);
    expect(names).toEqual(['Failed 1', 'With warnings 1', 'Created 2', 'Updated 1', 'Tracking failed 1', 'All 4']);
    // Failed rows first, when there are any.
    expect(within(filters).getByRole('button', { name: 'Failed 1' })).toHaveAttribute('aria-pressed', 'true');
    const grid = screen.getByRole('region', { name: 'Result rows' });
    // The grid's rows arrive from the thread after the counts.
    expect(await within(grid).findByText('✕ tracking_number: The batch stopped at this row.')).toBeInTheDocument();

    // A CSV file's rows are named by line, as the importer names them.
    expect(within(grid).getByRole('columnheader', { name: 'Line' })).toBeInTheDocument();
    await userEvent.click(await within(grid).findByRole('button', { name: 'Line 4: Failed. Show its details' }));
    const details = screen.getByRole('region', { name: 'Line 4 details' });
    // The service's own number for the row: its place in the batch's file (the third row sent).
    expect(details).toHaveTextContent('Line 4 of the file is row 3 of its batch as the service counts them (row_number).');
    expect(within(details).getByRole('list', { name: 'Errors and warnings' })).toHaveTextContent('Error in tracking_number: The batch stopped at this row.');
    expect(within(details).getByText('=1+1')).toBeInTheDocument();
    expect(within(details).getByText('No shipment was created or updated from this row.')).toBeInTheDocument();

    await userEvent.click(within(filters).getByRole('button', { name: 'With warnings 1' }));
    await userEvent.click(await within(screen.getByRole('region', { name: 'Result rows' })).findByRole('button', { name: 'Line 5: Updated. Show its details' }));
    const warned = screen.getByRole('region', { name: 'Line 5 details' });
    expect(warned).toHaveTextContent('Warning in assignees: nobody@example.com is not a member.');
    expect(within(warned).getByRole('link', { name: 'open the shipments of its batch' })).toHaveAttribute('href', '/shipments?job=job-1&batch_id=batch-0');
    expect(screen.getByRole('link', { name: 'Shipments of this job' })).toHaveAttribute('href', '/shipments?job=job-1');

    await userEvent.click(within(filters).getByRole('button', { name: 'All 4' }));
    expect(within(screen.getByRole('region', { name: 'Result rows' })).getAllByRole('row')).toHaveLength(5);
  });

  it('shows the rows of a job the console’s server runs, which this browser’s storage does not have, read from the console’s server', async () => {
    const { job, batches } = finishedJob(headers, [sandboxOutcomes()], { runsOn: 'console-server' });
    job.batches['batch-0'] = { ...job.batches['batch-0']!, chunkId: 0 };
    const asked: { url: string; authorization: string | null }[] = [];
    const server: typeof fetch = (input, init) => {
      const url = input instanceof Request ? input.url : input.toString();
      asked.push({ url, authorization: new Headers(init?.headers).get('Authorization') });
      const json = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
      if (url === '/console/api/server-jobs/job-1/payloads/0') return json(200, batches[0]!.payload);
      if (url === '/console/api/server-jobs/job-1/outcomes/batch-0') return json(200, batches[0]!.outcome);
      return json(404, { error: { code: 'not_found', message: 'No such job.' } });
    };
    // The thread over an empty browser storage: the job is the server's.
    const thread = inProcessThread(new MemoryJobStorage(), server);
    const root = createRootRoute({ component: () => <JobResults job={job} thread={thread} database="db" target={{ baseUrl: '', apiKey: 'key-9' }} jobs={[job]} /> });
    render(<RouterProvider router={createRouter({ routeTree: root, history: createMemoryHistory({ initialEntries: ['/'] }) })} />);

    const filters = await screen.findByRole('group', { name: 'Show rows' });
    expect(within(filters).getAllByRole('button').map((button) => button.textContent)).toEqual(['Failed 1', 'With warnings 1', 'Created 2', 'Updated 1', 'Tracking failed 1', 'All 4']);
    // The grid's rows arrive from the thread after the counts.
    expect(await within(screen.getByRole('region', { name: 'Result rows' })).findByText('✕ tracking_number: The batch stopped at this row.')).toBeInTheDocument();
    expect(screen.queryByText('Results not available')).not.toBeInTheDocument();
    // Each read once, with the connection's key in its header.
    expect(asked).toEqual([
      { url: '/console/api/server-jobs/job-1/payloads/0', authorization: 'Bearer key-9' },
      { url: '/console/api/server-jobs/job-1/outcomes/batch-0', authorization: 'Bearer key-9' },
    ]);
  });

  it('names the rows of a workbook by row, and puts the file’s number beside the service’s row_number in its messages', async () => {
    const batch = sentBatch(
      0,
      headers,
      [
        ['MSCU1234566', 'container', 'MSCU', 'first', ''],
        ['MAEU240000404', 'bill_of_lading', 'MAEU', 'second', ''],
      ],
      [
        item(7, { creationStatus: 'failed', shipmentId: null, problems: [{ level: 'error', code: 'batch_failed', column: null, message: 'The batch failed before this row was processed: Row 2 (row_number, counting data rows from 1, the header not counted) holds the sandbox test number.' }] }),
        item(9, { creationStatus: 'failed', shipmentId: null, problems: [{ level: 'error', code: 'batch_failed', column: null, message: 'The batch failed.' }] }),
      ],
    );
    const { job, batches } = finishedJob(headers, [batch], { source: { kind: 'file', fileName: 'march.xlsx', size: 100, contentHash: null, sheet: 'Shipments' }, numbering: 'Row' });
    await renderResults(job, batches);
    const grid = await screen.findByRole('region', { name: 'Result rows' });
    expect(within(grid).getByRole('columnheader', { name: 'Row' })).toBeInTheDocument();
    await userEvent.click(await within(grid).findByRole('button', { name: 'Row 7: Failed. Show its details' }));
    expect(screen.getByRole('region', { name: 'Row 7 details' })).toHaveTextContent(
      'Error: The batch failed before this row was processed: Row 2 (row_number, counting data rows from 1, the header not counted; Row 9 of the file) holds the sandbox test number.',
    );
  });

  it('downloads the failed rows as CSV: the columns as sent, an error column, formulas escaped, named after the job', async () => {
    const { job, batches } = finishedJob(headers, [sandboxOutcomes()]);
    await renderResults(job, batches);
    await userEvent.click(await screen.findByRole('button', { name: 'Download failed rows as CSV' }));
    await screen.findByText('Downloaded march-failed-rows.csv (1 row).');
    expect(downloads.map((d) => d.name)).toEqual(['march-failed-rows.csv']);
    const rows = Papa.parse<string[]>(await downloads[0]!.blob.text(), { newline: '\r\n' }).data;
    expect(rows).toEqual([
      [...headers, 'error'],
      ['CMDU240000500', 'bill_of_lading', 'CMDU', "'=1+1", '', 'tracking_number: The batch stopped at this row.'],
    ]);
  });

  it('says so in a sentence when a download cannot be written, and Retry asks the thread again', async () => {
    const { job, batches } = finishedJob(headers, [sandboxOutcomes()]);
    const thread = await renderResults(job, batches);
    const write = vi.spyOn(thread.sessions, 'exportFile').mockRejectedValue(new Error('out of memory'));
    await userEvent.click(await screen.findByRole('button', { name: 'Download rows whose tracking failed as XLSX' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The file could not be written: out of memory');
    expect(write).toHaveBeenLastCalledWith(expect.objectContaining({ filter: 'tracking-failed', format: 'xlsx', sheetName: 'rows whose tracking failed' }));
    write.mockRestore();
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByText('Downloaded march-tracking-failed.xlsx (1 row).');
    expect(downloads.map((d) => d.name)).toEqual(['march-tracking-failed.xlsx']);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('hands the failed rows with the service’s messages to fix & retry', async () => {
    const { job, batches } = finishedJob(headers, [sandboxOutcomes()]);
    const onFixAndRetry = vi.fn();
    await renderResults(job, batches, { onFixAndRetry });
    await userEvent.click(await screen.findByRole('button', { name: 'Fix and retry 1 row' }));
    await vi.waitFor(() => expect(onFixAndRetry).toHaveBeenCalled());
    expect(onFixAndRetry).toHaveBeenCalledWith({
      jobId: 'job-1',
      label: 'retry of march.csv',
      fileName: 'march-failed-rows.csv',
      csv: 'tracking_number,tracking_type,carrier,name,assignees\r\nCMDU240000500,bill_of_lading,CMDU,=1+1,',
      rows: { numbering: 'Line', rowNumbers: [4], notes: [[{ level: 'error', column: 'tracking_number', message: 'The batch stopped at this row.' }]] },
    });
    // The failed row (line 4) is not among them: it created nothing, so no tracking of it failed.
    await userEvent.click(screen.getByRole('button', { name: 'Fix and retry 1 row whose tracking failed' }));
    await vi.waitFor(() => expect(onFixAndRetry).toHaveBeenCalledTimes(2));
    expect(onFixAndRetry).toHaveBeenLastCalledWith(
      expect.objectContaining({
        rows: {
          numbering: 'Line',
          rowNumbers: [3],
          notes: [[{ level: 'error', column: null, message: 'Tracking failed.' }]],
        },
      }),
    );
  });

  it('shows the retries of a job, derived from the jobs list', async () => {
    const { job, batches } = finishedJob(headers, [sandboxOutcomes()]);
    const retry = { ...job, id: 'job-2', createdAt: Date.UTC(2024, 4, 1, 9, 30), source: { kind: 'retry', jobId: 'job-1', label: 'retry of march.csv' } } as ImportJob;
    await renderResults(job, batches, { jobs: [retry, job] });
    expect(await screen.findByRole('link', { name: /^the job of / })).toHaveAttribute('href', '/imports/job-2');
  });

  it('grows while the job runs: a batch that finishes adds its rows and counts, the rows shown stay', async () => {
    const first = sentBatch(0, headers, [['A1', 'container', 'MSCU', 'a', '']], [item(2)]);
    const second = sentBatch(1, headers, [['B1', 'container', 'MSCU', 'b', '']], [item(3, { creationStatus: 'failed', shipmentId: null, problems: [{ level: 'error', code: 'x', column: 'carrier', message: 'bad' }] })]);
    const { job: finished, batches } = finishedJob(headers, [first, second]);
    const running: ImportJob = { ...finished, batches: { 'batch-0': finished.batches['batch-0']! }, runState: 'running', finishedAt: null };
    const storage = await storedJob(running, batches);
    const thread = inProcessThread(storage);
    let finish: () => void = () => undefined;
    function Page() {
      const [job, setJob] = useState(running);
      finish = () => setJob(finished);
      return <JobResults job={job} thread={thread} database="db" jobs={[job]} />;
    }
    const root = createRootRoute({ component: Outlet });
    const page = createRoute({ getParentRoute: () => root, path: '/', component: Page });
    render(<RouterProvider router={createRouter({ routeTree: root.addChildren([page]), history: createMemoryHistory({ initialEntries: ['/'] }) })} />);

    expect(await screen.findByRole('button', { name: 'All 1' })).toHaveAttribute('aria-pressed', 'true');
    expect(await screen.findByRole('button', { name: 'Line 2: Created. Show its details' })).toBeInTheDocument();
    expect(screen.getByText('1 of 2 batches finished; the rows of the others appear when they finish.')).toBeInTheDocument();

    // The thread holds the grown rows back until released: meanwhile the rows shown stay.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const rowsOf = thread.sessions.rows.bind(thread.sessions);
    vi.spyOn(thread.sessions, 'rows').mockImplementation((request) => held.then(() => rowsOf(request)));
    await storage.update(finished.id, () => ({ job: finished }));
    act(() => finish());
    expect(await screen.findByRole('button', { name: 'All 2' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Failed 1' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Line 2: Created. Show its details' })).toBeInTheDocument();
    release();
    // The filter shown stays, and the new batch's row joins its rows.
    expect(await screen.findByRole('button', { name: 'Line 3: Failed. Show its details' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Line 2: Created. Show its details' })).toBeInTheDocument();
    expect(screen.queryByText(/batches finished; the rows of the others/)).not.toBeInTheDocument();
  });

  it('waits with a sentence while no batch has finished', async () => {
    const { job, batches } = finishedJob(headers, [], { batches: {}, finishedAt: null, runState: 'running' });
    await renderResults(job, batches);
    expect(await screen.findByText(/No batch of this job has finished yet/)).toBeInTheDocument();
  });

  it('says why the results cannot be read, and Retry reads them again', async () => {
    const { job, batches } = finishedJob(headers, [sandboxOutcomes()]);
    let fail = true;
    await renderResults(job, batches, {}, (storage) => ({
      get: (id) => storage.get(id),
      outcome: (id, batchId) => (fail ? Promise.reject(new Error('The database is closed.')) : storage.outcome(id, batchId)),
      payload: (id, chunkId) => storage.payload(id, chunkId),
    }));
    expect(await screen.findByRole('alert')).toHaveTextContent("The results could not be read from this browser's storage: The database is closed.");
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: 'All 4' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('keeps fewer than 200 rows in the DOM at 100,000 items, and moves by keyboard', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => [`N${i}`, 'container', 'MSCU', `name ${i}`, '']);
    const batches = Array.from({ length: 20 }, (_, chunk) =>
      sentBatch(chunk, headers, rows, rows.map((_, i) => item(chunk * 5000 + i + 1, i % 4 === 0 ? { creationStatus: 'failed', shipmentId: null, problems: [{ level: 'error', code: 'x', column: 'carrier', message: 'bad' }] } : {}))),
    );
    const { job } = finishedJob(headers, batches);
    await renderResults(job, batches);
    const all = await screen.findByRole('button', { name: 'All 100,000' }, { timeout: 20_000 });
    await userEvent.click(all);
    const grid = screen.getByRole('region', { name: 'Result rows' });
    expect(within(grid).getAllByRole('row').length).toBeLessThan(200);
    expect(screen.getByRole('button', { name: 'Failed 25,000' })).toBeInTheDocument();

    // The rows in sight come from the results thread, a window at a time.
    const first = await within(grid).findByRole('button', { name: 'Line 1: Failed. Show its details' });
    act(() => first.focus());
    await userEvent.keyboard('{ArrowDown}');
    expect(await within(grid).findByRole('button', { name: 'Line 2: Created. Show its details' })).toHaveFocus();
    await userEvent.keyboard('{Control>}{End}{/Control}');
    await vi.waitFor(() => expect(within(grid).getByRole('button', { name: 'Line 100000: Created. Show its details' })).toHaveFocus());
    // A page is the rows in sight less one: 400 px / 40 px - 1 = 9 rows.
    await userEvent.keyboard('{PageUp}');
    await vi.waitFor(() => expect(within(grid).getByRole('button', { name: 'Line 99991: Created. Show its details' })).toHaveFocus());
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('region', { name: 'Line 99991 details' })).toHaveTextContent('N4990');
    expect(within(grid).getAllByRole('row').length).toBeLessThan(200);
    await userEvent.keyboard('{Control>}{Home}{/Control}');
    await vi.waitFor(() => expect(within(grid).getByRole('button', { name: 'Line 1: Failed. Show its details' })).toHaveFocus());
    await userEvent.keyboard('{PageDown}');
    await vi.waitFor(() => expect(within(grid).getByRole('button', { name: 'Line 10: Created. Show its details' })).toHaveFocus());
    // Another filter starts at its top, with the first row holding the Tab stop.
    await userEvent.click(screen.getByRole('button', { name: 'Failed 25,000' }));
    expect(await within(grid).findByRole('button', { name: 'Line 1: Failed. Show its details' })).toHaveAttribute('tabindex', '0');
    expect(within(grid).getAllByRole('row').length).toBeLessThan(200);
  }, 60_000);
});
