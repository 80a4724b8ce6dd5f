import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetConnection, saveConnection } from '../../api/connection-store';
import type { ImportJob } from '../../jobs/import-job';
import type { JobsSnapshot } from '../../jobs/job-store';
import { shipmentsSearchSchema } from './shipments-search';
import { ShipmentsPage } from './shipments-page';
import { testShipment } from './test-shipments';

const rows = (count: number) => Array.from({ length: count }, (_, i) => testShipment(i + 1));

/** A stand-in service: `list` answers each GET of the list; everything else is a 404. */
function standIn(list: (url: URL) => Response) {
  const asked: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string) => {
      const url = new URL(input);
      asked.push(url);
      if (url.pathname === '/api/v1/shipments') return Promise.resolve(list(url));
      return Promise.resolve(Response.json({ errors: [{ code: 'not_found', message: 'No such path.' }] }, { status: 404 }));
    }),
  );
  return asked.filter.bind(asked);
}

const noJobs: JobsSnapshot = { status: 'ready', jobs: [], error: null };

/** A job of this browser that sent its rows in two batches, both finished. */
function twoBatchJob(): ImportJob {
  const batch = (id: string, created: number, updated: number) => ({ batchId: id, finishedAt: 2, counts: { created, updated, failed: 0, withWarnings: 0, trackingFailed: 0 } });
  const chunk = (id: number, batchId: string) => ({ id, firstPosition: id, rowCount: 1, firstRow: 2, lastRow: 2, withoutReference: 0, state: { status: 'accepted', batchId, at: 1 }, attempts: 1 });
  return {
    id: 'job-1',
    createdAt: Date.UTC(2026, 10, 23, 9, 30),
    source: { kind: 'file', fileName: 'march.csv', size: 10, contentHash: null },
    chunks: [chunk(0, 'batch-a'), chunk(1, 'batch-b')],
    batches: { 'batch-a': batch('batch-a', 20, 5), 'batch-b': batch('batch-b', 3, 2) },
  } as unknown as ImportJob;
}

function renderPage(initial = '/shipments', jobs: JobsSnapshot = noJobs, onReloadJobs = () => undefined) {
  saveConnection({ baseUrl: 'https://tracking.example.com', apiKey: 'secret-key-123', label: 'Test', workspace: null, sandbox: false, keyHeldByServer: false, remembered: false });
  const root = createRootRoute({ component: Outlet });
  // As in the app: the page sits under the pathless connected layout route.
  const connected = createRoute({ getParentRoute: () => root, id: 'connected', component: Outlet });
  const route = createRoute({ getParentRoute: () => connected, path: '/shipments', validateSearch: (search) => shipmentsSearchSchema.parse(search), component: () => <ShipmentsPage jobs={jobs} onReloadJobs={onReloadJobs} /> });
  const job = createRoute({ getParentRoute: () => connected, path: '/imports/$jobId', component: () => null });
  const batch = createRoute({ getParentRoute: () => connected, path: '/batches/$batchId', component: () => <h1>Batch page</h1> });
  const home = createRoute({ getParentRoute: () => root, path: '/', component: () => null });
  const router = createRouter({ routeTree: root.addChildren([connected.addChildren([route, job, batch]), home]), history: createMemoryHistory({ initialEntries: [initial] }) });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

afterEach(() => {
  vi.unstubAllGlobals();
  forgetConnection();
});

describe('Shipments page', () => {
  it('says "Page 1 of 3" when the service gives its pages', async () => {
    standIn(() => Response.json({ data: rows(25), pagination: { page: 1, page_size: 25, total: 60, total_pages: 3 } }));
    renderPage();
    const pages = await screen.findByRole('navigation', { name: 'Pages' });
    expect(within(pages).getByText('Page 1 of 3 · 60 shipments')).toBeInTheDocument();
    expect(within(pages).getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(within(pages).getByRole('button', { name: 'Next' })).toBeEnabled();
    expect(within(screen.getByRole('table', { name: 'Shipments' })).getAllByRole('row')).toHaveLength(26);
  });

  it('with {count, next, previous} says "Page N" and the count, never a page total it would make up, and pages on', async () => {
    const asked = standIn((url) =>
      url.searchParams.get('page') === '3'
        ? Response.json({ data: rows(10), pagination: { count: 60, next: null, previous: 'https://tracking.example.com/api/v1/shipments/?page=2' } })
        : Response.json({ data: rows(25), pagination: { count: 60, next: `https://tracking.example.com/api/v1/shipments/?page=${Number(url.searchParams.get('page')) + 1}`, previous: null } }),
    );
    const router = renderPage('/shipments?page=2');
    const pages = await screen.findByRole('navigation', { name: 'Pages' });
    expect(await within(pages).findByText('Page 2 · 60 shipments')).toBeInTheDocument();
    expect(within(pages).queryByText(/ of /)).toBeNull();

    await userEvent.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await within(pages).findByText('Page 3 · 60 shipments')).toBeInTheDocument();
    expect(within(pages).getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(router.state.location.search).toEqual({ page: 3 });
    expect(asked((url) => url.pathname === '/api/v1/shipments').map((url) => url.searchParams.get('page'))).toEqual(['2', '3']);
  });

  it('offers no Next after a short page when the service says nothing about pages', async () => {
    standIn(() => Response.json({ data: rows(3) }));
    renderPage();
    const pages = await screen.findByRole('navigation', { name: 'Pages' });
    expect(within(pages).getByText('Page 1')).toBeInTheDocument();
    expect(within(pages).getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('shows a refused list as a sentence with Retry, which asks again', async () => {
    let answer = Response.json({ errors: [{ code: 'not_found', message: 'There is no import batch b-1 in this workspace.', target: 'batch_id' }] }, { status: 404 });
    const asked = standIn(() => answer);
    renderPage('/shipments?batch_id=b-1');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load shipments');
    expect(alert).toHaveTextContent('There is no import batch b-1 in this workspace.');

    answer = Response.json({ data: [], pagination: { page: 1, page_size: 25, total: 0, total_pages: 0 } });
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'No shipments from this batch' })).toBeInTheDocument();
    expect(asked((url) => url.searchParams.get('batch_id') === 'b-1')).toHaveLength(2);
  });

  it('picks an import job in the URL and lists its batches’ shipments, with counts that agree with the job’s', async () => {
    const totals: Record<string, number> = { 'batch-a': 25, 'batch-b': 5 };
    const asked = standIn((url) => {
      const total = totals[url.searchParams.get('batch_id') ?? ''] ?? 100;
      return Response.json({ data: rows(Math.min(total, 25)), pagination: { page: 1, page_size: 25, total, total_pages: Math.ceil(total / 25) } });
    });
    const router = renderPage('/shipments', { status: 'ready', jobs: [twoBatchJob()], error: null });
    const picker = await screen.findByRole('combobox', { name: 'Import job' });
    await userEvent.selectOptions(picker, 'job-1');
    expect(router.state.location.search).toEqual({ job: 'job-1' });

    const batches = await screen.findByRole('region', { name: /^Batches of march\.csv/ });
    expect(batches).toHaveTextContent('The job created 23 and updated 7 shipments in 2 batches.');
    expect(await within(batches).findByText('The service lists 30 shipments for these batches, as the job counted.')).toBeInTheDocument();
    // The first batch is shown; the other is one click away, in the URL too.
    expect(within(batches).getByRole('button', { name: 'Batch 1: 20 created, 5 updated' })).toHaveAttribute('aria-pressed', 'true');
    expect(await within(screen.getByRole('navigation', { name: 'Pages' })).findByText('Page 1 of 1 · 25 shipments')).toBeInTheDocument();
    await userEvent.click(within(batches).getByRole('button', { name: 'Batch 2: 3 created, 2 updated' }));
    expect(router.state.location.search).toEqual({ job: 'job-1', batch_id: 'batch-b' });
    expect(await within(screen.getByRole('navigation', { name: 'Pages' })).findByText('Page 1 of 1 · 5 shipments')).toBeInTheDocument();
    expect(asked((url) => url.searchParams.get('batch_id') === 'batch-b').length).toBeGreaterThan(0);
    // A job's batches replace the batch id field.
    expect(screen.queryByRole('search', { name: 'Filter shipments' })).toBeNull();
  });

  it('says when the service lists other counts than the job’s', async () => {
    standIn((url) => Response.json({ data: rows(3), pagination: { page: 1, page_size: 25, total: url.searchParams.get('batch_id') === 'batch-a' ? 24 : 5, total_pages: 1 } }));
    renderPage('/shipments?job=job-1', { status: 'ready', jobs: [twoBatchJob()], error: null });
    expect(await screen.findByText('The service lists 29 shipments for these batches, but the job counted 30 created or updated.')).toBeInTheDocument();
  });

  it('says so when the URL names a job this browser does not have, with a way back to all shipments', async () => {
    standIn(() => Response.json({ data: rows(3) }));
    renderPage('/shipments?job=gone');
    const alert = (await screen.findByText(/This browser has no import job gone\./)).closest<HTMLElement>('[role="status"]')!;
    expect(alert).toHaveTextContent('Import job not found');
    expect(within(alert).getByRole('link', { name: 'Show all shipments' })).toHaveAttribute('href', '/shipments');
  });

  it('offers Retry when this browser’s import jobs cannot be read, and lists the shipments meanwhile', async () => {
    standIn(() => Response.json({ data: rows(3) }));
    const reload = vi.fn();
    renderPage('/shipments', { status: 'unavailable', jobs: [], error: 'Import jobs cannot be kept in this browser: no IndexedDB.' }, reload);
    const alert = (await screen.findByText(/Import jobs cannot be kept in this browser: no IndexedDB\./)).closest<HTMLElement>('[role="status"]')!;
    expect(alert).toHaveTextContent('Import jobs not available');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(reload).toHaveBeenCalled();
    expect(await screen.findByRole('table', { name: 'Shipments' })).toBeInTheDocument();
  });

  it('links a batch filter to the batch’s results, where its failed rows are too', async () => {
    standIn(() => Response.json({ data: rows(3) }));
    const router = renderPage();
    const filter = await screen.findByRole('search', { name: 'Filter shipments' });
    expect(within(filter).queryByRole('link', { name: 'Open its results' })).toBeNull();

    await userEvent.type(within(filter).getByRole('textbox', { name: 'Import batch' }), ' b-7 {Enter}');
    const link = await screen.findByRole('link', { name: 'Open its results' });
    expect(screen.getByRole('search', { name: 'Filter shipments' })).toContainElement(link);
    expect(link).toHaveAttribute('href', '/batches/b-7');
    await userEvent.click(link);
    expect(await screen.findByRole('heading', { name: 'Batch page' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/batches/b-7');
  });
});
