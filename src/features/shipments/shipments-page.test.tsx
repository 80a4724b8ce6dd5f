import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetConnection, saveConnection } from '../../api/connection-store';
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

function renderPage(initial = '/shipments') {
  saveConnection({ baseUrl: 'https://tracking.example.com', apiKey: 'secret-key-123', label: 'Test', workspace: null, sandbox: false, keyHeldByServer: false, remembered: false });
  const root = createRootRoute({ component: Outlet });
  const route = createRoute({ getParentRoute: () => root, path: '/shipments', validateSearch: (search) => shipmentsSearchSchema.parse(search), component: ShipmentsPage });
  const home = createRoute({ getParentRoute: () => root, path: '/', component: () => null });
  const router = createRouter({ routeTree: root.addChildren([route, home]), history: createMemoryHistory({ initialEntries: [initial] }) });
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
});
