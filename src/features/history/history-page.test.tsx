import 'fake-indexeddb/auto';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider, useParams } from '@tanstack/react-router';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetConnection, getConnection, saveConnection } from '../../api/connection-store';
import type { BatchProgress, ImportJob, NewJob } from '../../jobs/import-job';
import { jobStore } from '../../jobs/job-runtime';
import { HistoryPage, type HistoryView } from './history-page';

function JobPageStub() {
  const { jobId } = useParams({ strict: false });
  return <h1>Job {jobId}</h1>;
}

function BatchPageStub() {
  const { batchId } = useParams({ strict: false });
  return <h1>Batch {batchId}</h1>;
}

function renderHistory(view: HistoryView = 'browser') {
  const root = createRootRoute({ component: Outlet });
  const routes = [
    createRoute({ getParentRoute: () => root, path: '/history', component: () => <HistoryPage view={view} /> }),
    createRoute({ getParentRoute: () => root, path: '/imports/$jobId', component: JobPageStub }),
    createRoute({ getParentRoute: () => root, path: '/batches/$batchId', component: BatchPageStub }),
    createRoute({ getParentRoute: () => root, path: '/quick-add', component: () => <h1>Quick add</h1> }),
    createRoute({ getParentRoute: () => root, path: '/', component: () => <h1>Import shipments</h1> }),
  ];
  const router = createRouter({ routeTree: root.addChildren(routes), history: createMemoryHistory({ initialEntries: ['/history'] }) });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const HEADERS = ['tracking_number', 'tracking_type', 'reference', 'carrier'];

function fileJob(rows: number, skipped = 0): NewJob {
  return {
    source: { kind: 'file', fileName: 'clean.csv', size: 2048, contentHash: null },
    serviceUrl: '',
    rowsRead: rows + skipped, numbering: 'Line',
    skipped: Array.from({ length: skipped }, (_, i) => ({ rowNumber: rows + 2 + i, reason: 'tracking_number: empty.' })),
    rows: { format: 'csv', headers: HEADERS, rows: Array.from({ length: rows }, (_, i) => ['CSQU3054383', 'container', `R${i}`, 'MAEU']), rowNumbers: Array.from({ length: rows }, (_, i) => i + 2) },
    chunkRows: 2,
  };
}

function quickAddJob(rows: number): NewJob {
  return {
    source: { kind: 'quick-add' },
    serviceUrl: '',
    rowsRead: rows, numbering: 'Row',
    skipped: [],
    rows: { format: 'json', requests: Array.from({ length: rows }, (_, i) => ({ reference: `Q${i}`, tracking_number: 'CSQU3054383', tracking_type: 'container', carrier_scac: 'MAEU' })), rowNumbers: Array.from({ length: rows }, (_, i) => i + 1) },
    chunkRows: 300,
  };
}

function progress(batchId: string, chunkId: number, total: number, counts: Partial<BatchProgress['counts']>, finishedAt: number | null): BatchProgress {
  return {
    batchId, chunkId, status: finishedAt === null ? 'processing' : 'completed', total, completed: finishedAt === null ? 0 : total,
    counts: { created: 0, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0, ...counts },
    problems: [], problemCount: 0, acceptedAt: 1, lastPolledAt: null, lastMovedAt: 1, finishedAt, failureReason: null, unmatchedItems: 0,
  };
}

const at = (iso: string) => Date.parse(iso);

/** Three jobs: a finished file import with a failure, a quick add still sending, a paused retry. */
async function seedJobs(): Promise<{ finished: ImportJob; sending: ImportJob; paused: ImportJob }> {
  const finishedNew = await jobStore.createJob(fileJob(4, 1));
  // Fixtures written straight into the storage: a finished job as the runner leaves it, dates apart.
  const finished = await jobStore.storage.update(finishedNew.id, (job) => ({
    job: {
      ...job,
      createdAt: at('2026-03-02T09:00:00Z'),
      chunks: job.chunks.map((chunk, i) => ({ ...chunk, state: { status: 'accepted', batchId: `b${i}`, at: 2 } })),
      batches: { b0: progress('b0', 0, 2, { created: 2 }, 3), b1: progress('b1', 1, 2, { created: 1, updated: 0, failed: 1 }, 4) },
      runState: 'finished',
      finishedAt: 4,
    },
  }));
  const sendingNew = await jobStore.createJob(quickAddJob(3));
  const sending = await jobStore.storage.update(sendingNew.id, (job) => ({ job: { ...job, createdAt: at('2026-03-03T09:00:00Z') } }));
  const pausedNew = await jobStore.createJob({ ...quickAddJob(2), source: { kind: 'retry', jobId: finished.id, label: 'clean.csv' } });
  const paused = await jobStore.storage.update(pausedNew.id, (job) => ({
    job: { ...job, createdAt: at('2026-03-01T09:00:00Z'), runState: 'paused', pausedReason: 'The service refused the API key.' },
  }));
  // The store's snapshot follows its writes a moment later; render once it holds the last one.
  await jobStore.reload();
  return { finished, sending, paused };
}

const SANDBOX = { baseUrl: '', apiKey: 'demo-key-0123456789', label: 'Local sandbox', workspace: 'Demo', sandbox: true, keyHeldByServer: false, remembered: true };

// The jobs' service is this origin (''): connected to it, running jobs run in this tab, as the
// console's server (its /console.json) runs none, as with CONSOLE_RUNS_JOBS=off; tests that set
// runs_jobs say so.
const realFetch = globalThis.fetch;
beforeEach(() => {
  saveConnection(SANDBOX);
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    input === '/console.json' ? Promise.resolve(Response.json({ mode: 'sandbox', runs_jobs: false })) : realFetch(input, init),
  );
});

afterEach(async () => {
  forgetConnection();
  vi.unstubAllGlobals();
  for (const job of await jobStore.listJobs()) await jobStore.deleteJob(job.id);
});

/** The table row whose row header (the job's source) is this text. */
function rowOf(source: string): HTMLElement {
  const row = screen.getAllByRole('row').find((candidate) => within(candidate).queryByRole('rowheader')?.textContent === source);
  if (!row) throw new Error(`No row for ${source}`);
  return row;
}

describe('History', () => {
  it('shows loading, then an empty state that leads to Import and Quick add', async () => {
    renderHistory();
    expect(await screen.findByText('Loading import jobs…')).toBeInTheDocument();
    const empty = await screen.findByRole('region', { name: 'No import jobs yet' });
    expect(within(empty).getByRole('link', { name: 'Import a file' })).toHaveAttribute('href', '/');
    expect(within(empty).getByRole('link', { name: 'Quick add shipments' })).toHaveAttribute('href', '/quick-add');
  });

  it('lists every job newest first with its source, state in words, counts and times', async () => {
    const { sending } = await seedJobs();
    renderHistory();
    const table = await screen.findByRole('table', { name: 'Import jobs, newest first' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual(['Quick add', 'clean.csv, 2.0 KB', 'Retry of clean.csv']);

    const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);
    // State, read, sent, skipped, created, updated, failed, started, finished, sent from, actions.
    const done = cells(rows[1]!);
    expect(done.slice(0, 7)).toEqual(['✕Finished with failures1 row failed.', '5', '4', '1', '3', '0', '1']);
    expect(done[7]).toMatch(/^2 Mar 2026, \d\d:\d\d$/);
    expect(done[8]).toMatch(/^\d+ \w{3} \d{4}, \d\d:\d\d$/);
    expect(done[9]).toBe('This browser');

    const running = cells(rows[0]!);
    expect(running.slice(0, 7)).toEqual(['◔Sending', '3', '0', '0', '0', '0', '0']);
    expect(running[8]).toBe('not yet');
    expect(within(rows[2]!).getByText('Paused')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('The service refused the API key.')).toBeInTheDocument();

    expect(within(rows[0]!).getByRole('link', { name: /^Open Quick add, started/ })).toHaveAttribute('href', `/imports/${sending.id}`);
  });

  it('says which jobs the console’s server sends', async () => {
    const { sending } = await seedJobs();
    await jobStore.storage.update(sending.id, (job) => ({ job: { ...job, runsOn: 'console-server', sentBy: 'Ana' } }));
    await jobStore.reload();
    renderHistory();
    const table = await screen.findByRole('table', { name: 'Import jobs, newest first' });
    const [serverRow, browserRow] = within(table).getAllByRole('row').slice(1);
    expect(within(serverRow!).getByRole('cell', { name: 'The console’s server' })).toBeInTheDocument();
    expect(within(browserRow!).getByRole('cell', { name: 'This browser' })).toBeInTheDocument();
  });

  it('says that deleting a job the console’s server sends deletes the server’s record, for every browser of the workspace', async () => {
    const { finished } = await seedJobs();
    await jobStore.storage.update(finished.id, (job) => ({ job: { ...job, runsOn: 'console-server' } }));
    await jobStore.reload();
    renderHistory();
    await screen.findByRole('table');
    await userEvent.click(within(rowOf('clean.csv, 2.0 KB')).getByRole('button', { name: /^Delete clean\.csv/ }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete this job from History?' });
    expect(dialog).toHaveTextContent('This deletes the console’s server’s record of the job, for every browser of your workspace: its progress, its results and the rows kept for download and retry. The shipments already imported stay in the tracking service.');
    expect(dialog).not.toHaveTextContent('only this browser');
  });

  it('opens a job on its progress page', async () => {
    const { sending } = await seedJobs();
    renderHistory();
    await screen.findByRole('table');
    await userEvent.click(within(rowOf('Quick add')).getByRole('link', { name: /^Open/ }));
    expect(await screen.findByRole('heading', { name: `Job ${sending.id}` })).toBeInTheDocument();
  });

  it('cancels a job after saying that accepted batches still finish', async () => {
    const { sending } = await seedJobs();
    renderHistory();
    await screen.findByRole('table');
    expect(within(rowOf('clean.csv, 2.0 KB')).queryByRole('button', { name: /^Cancel/ })).not.toBeInTheDocument();

    await userEvent.click(within(rowOf('Quick add')).getByRole('button', { name: /^Cancel Quick add/ }));
    const dialog = screen.getByRole('alertdialog', { name: 'Cancel this import?' });
    expect(dialog).toHaveTextContent('3 rows that have not been sent will be skipped');
    expect(dialog).toHaveTextContent('Batches the service has already accepted still finish');
    expect(within(dialog).getByRole('button', { name: 'Keep sending' })).toHaveFocus();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel import' }));
    await waitFor(() => expect(within(rowOf('Quick add')).getByText('Cancelled')).toBeInTheDocument());
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect((await jobStore.getJob(sending.id))?.runState).toBe('cancelled');
    expect(screen.getByText(/^Cancelled Quick add, started/)).toBeInTheDocument();
  });

  it('resumes a paused job', async () => {
    const { paused } = await seedJobs();
    renderHistory();
    await screen.findByRole('table');
    await userEvent.click(within(rowOf('Retry of clean.csv')).getByRole('button', { name: /^Resume/ }));
    await waitFor(() => expect(within(rowOf('Retry of clean.csv')).getByText('Sending')).toBeInTheDocument());
    expect((await jobStore.getJob(paused.id))?.runState).toBe('running');
  });

  it('says a running job waits for a connection, and connects to the sandbox in one click to resume it', async () => {
    forgetConnection();
    const fetch = vi.fn((url: string) =>
      Promise.resolve(
        url === '/console.json'
          ? Response.json({ mode: 'sandbox' })
          : url === '/sandbox.json'
            ? Response.json({ sandbox: true, api_key: SANDBOX.apiKey, workspace: { id: 'demo', name: 'Demo' }, members: [], custom_fields: [], test_numbers: [] })
            : Response.json({ data: [], pagination: {} }),
      ),
    );
    vi.stubGlobal('fetch', fetch);
    await seedJobs();
    renderHistory();
    await screen.findByRole('table');
    expect(within(rowOf('Quick add')).getByText('Waiting for a connection')).toBeInTheDocument();
    expect(within(rowOf('Quick add')).getByText('It resumes once this browser is connected to this console’s service.')).toBeInTheDocument();
    const notice = screen.getByText('1 import job waits for a connection').closest<HTMLElement>('[role=status]')!;
    const connectButton = await within(notice).findByRole('button', { name: 'Connect to the local sandbox' });
    expect(notice).toHaveTextContent('It resumes sending and polling once this browser is connected to the local sandbox.');

    await userEvent.click(connectButton);
    await waitFor(() => expect(within(rowOf('Quick add')).getByText('Sending')).toBeInTheDocument());
    expect(getConnection()).toMatchObject({ sandbox: true, remembered: true });
    expect(screen.queryByText(/waits for a connection/)).not.toBeInTheDocument();
  });

  it('not connected where the console’s server runs the jobs: says they are listed once connected, and connects to the sandbox in one click', async () => {
    forgetConnection();
    const fetch = vi.fn((url: string) =>
      Promise.resolve(
        url === '/console.json'
          ? Response.json({ mode: 'sandbox', runs_jobs: true })
          : url === '/sandbox.json'
            ? Response.json({ sandbox: true, api_key: SANDBOX.apiKey, workspace: { id: 'demo', name: 'Demo' }, members: [], custom_fields: [], test_numbers: [] })
            : Response.json({ data: [], pagination: {} }),
      ),
    );
    vi.stubGlobal('fetch', fetch);
    renderHistory();
    expect(await screen.findByText(/^Every import job this browser started, and those the console’s server sends for your workspace/)).toHaveTextContent(
      'The console’s server’s jobs go on with every tab closed',
    );
    const notice = (await screen.findByText('Connect to see the jobs the console’s server sends')).closest<HTMLElement>('[role=status]')!;
    expect(notice).toHaveTextContent('Jobs sent from this browser keep running on the console’s server with every tab closed; they are listed here once this browser is connected to the local sandbox.');
    await userEvent.click(await within(notice).findByRole('button', { name: 'Connect to the local sandbox' }));
    await waitFor(() => expect(screen.queryByText('Connect to see the jobs the console’s server sends')).not.toBeInTheDocument());
    expect(getConnection()).toMatchObject({ sandbox: true, remembered: true });
  });

  it('deletes a job only after a confirmation that says what is lost; Escape keeps it', async () => {
    const { finished } = await seedJobs();
    renderHistory();
    await screen.findByRole('table');
    const deleteButton = within(rowOf('clean.csv, 2.0 KB')).getByRole('button', { name: /^Delete clean\.csv/ });

    await userEvent.click(deleteButton);
    expect(screen.getByRole('alertdialog', { name: 'Delete this job from History?' })).toHaveTextContent(
      "only this browser's record of the job: its progress, its results and the rows kept for download and retry. The shipments already imported stay in the tracking service.",
    );
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(deleteButton).toHaveFocus();
    expect(await jobStore.getJob(finished.id)).toBeDefined();

    await userEvent.click(deleteButton);
    await userEvent.click(screen.getByRole('button', { name: 'Delete job' }));
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: 'clean.csv, 2.0 KB' })).not.toBeInTheDocument());
    expect(await jobStore.getJob(finished.id)).toBeUndefined();
    expect(screen.getAllByRole('row')).toHaveLength(3);
  });

  it('keeps focus inside the confirmation with Tab', async () => {
    await seedJobs();
    renderHistory();
    await screen.findByRole('table');
    await userEvent.click(within(rowOf('Quick add')).getByRole('button', { name: /^Delete/ }));
    const dialog = screen.getByRole('alertdialog');
    await userEvent.tab();
    expect(within(dialog).getByRole('button', { name: 'Delete job' })).toHaveFocus();
    await userEvent.tab();
    expect(within(dialog).getByRole('button', { name: 'Keep it' })).toHaveFocus();
  });
});

describe('History: a batch by its id', () => {
  it('opens the batch page of the id typed or pasted, trimmed, with Enter', async () => {
    const router = renderHistory();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Batch id' }), '  3f2b9c1e-batch {Enter}');
    expect(await screen.findByRole('heading', { name: 'Batch 3f2b9c1e-batch' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/batches/3f2b9c1e-batch');
  });

  it('opens it from the Team view too, with the Open batch button', async () => {
    forgetConnection();
    renderHistory('team');
    await userEvent.type(await screen.findByRole('textbox', { name: 'Batch id' }), 'b-42');
    await userEvent.click(screen.getByRole('button', { name: 'Open batch' }));
    expect(await screen.findByRole('heading', { name: 'Batch b-42' })).toBeInTheDocument();
  });

  it('stays on History and says so when the field is empty', async () => {
    const router = renderHistory();
    const field = await screen.findByRole('textbox', { name: 'Batch id' });
    await userEvent.type(field, '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Open batch' }));
    expect(field).toHaveAccessibleDescription('Type or paste a batch id first: the field is empty.');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(router.state.location.pathname).toBe('/history');
    // Typing clears the sentence.
    await userEvent.type(field, 'b');
    expect(field).toHaveAccessibleDescription('');
  });
});
