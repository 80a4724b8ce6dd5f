import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryJobStorage } from '../../jobs/storage/memory-storage';
import { failedBatch, inProcessThread } from '../../jobs/thread/test-results';
import { BatchResults } from './batch-results';

const batch = failedBatch('The batch stopped at Row 2 (row_number, 1-based).');

beforeEach(() => {
  // jsdom lays nothing out: give the grid's scroll box a height so the virtualizer shows rows.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
  Element.prototype.scrollIntoView = () => undefined;
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** The batch page for a service on another origin (no team history), its thread run in this one over `fetch`. */
function renderBatch(batchId: string, fetch: typeof globalThis.fetch) {
  const thread = inProcessThread(new MemoryJobStorage(), fetch);
  const target = { baseUrl: 'https://api.example.com', apiKey: 'k' };
  const root = createRootRoute({ component: Outlet });
  const page = createRoute({ getParentRoute: () => root, path: '/', component: () => <BatchResults batchId={batchId} target={target} thread={thread} onFixAndRetry={() => undefined} /> });
  const router = createRouter({ routeTree: root.addChildren([page]), history: createMemoryHistory({ initialEntries: ['/'] }) });
  const client = new QueryClient({ defaultOptions: { queries: { retryDelay: 0 } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const answer = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));

describe('BatchResults', { timeout: 20_000 }, () => {
  it('shows the batch the thread read, its failure, and its rows rebuilt from the items, saying so', async () => {
    renderBatch('b-9', (input) => ((input instanceof Request ? input.url : input.toString()).endsWith('/imports/b-9') ? answer(200, batch) : answer(404, {})));
    expect(await screen.findByRole('heading', { name: 'Batch b-9' })).toBeTruthy();
    expect(screen.getByText('The batch failed')).toBeTruthy();
    expect(screen.getByText('The batch stopped at Row 2 (row_number, 1-based).')).toBeTruthy();
    expect(screen.getByText(/The rows as sent are not in this console's team history/)).toBeTruthy();
    const filters = await screen.findByRole('group', { name: 'Show rows' });
    expect(within(filters).getAllByRole('button').map((button) => button.textContent)).toContain('Failed 1');
  });

  it('says there is no such batch when the service answers 404', async () => {
    renderBatch('nope', () => answer(404, { errors: [{ code: 'not_found', message: 'No such batch.' }] }));
    expect(await screen.findByText('No such batch')).toBeTruthy();
  });
});
