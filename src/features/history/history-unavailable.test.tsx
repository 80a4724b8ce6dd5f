// No fake-indexeddb here: jsdom has no IndexedDB, as a browser with it turned off.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HistoryPage } from './history-page';

describe('History without IndexedDB', () => {
  it('says that jobs cannot be kept, and why', async () => {
    const root = createRootRoute({ component: Outlet });
    const routes = ['/history', '/', '/quick-add'].map((path) => createRoute({ getParentRoute: () => root, path, component: path === '/history' ? HistoryPage : () => null }));
    const router = createRouter({ routeTree: root.addChildren(routes), history: createMemoryHistory({ initialEntries: ['/history'] }) });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('History is not available in this browser');
    expect(alert).toHaveTextContent(/Import jobs cannot be kept in this browser: .*indexedDB/i);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
