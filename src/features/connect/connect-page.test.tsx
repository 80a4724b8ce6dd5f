import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetConnection, getConnection } from '../../api/connection-store';
import { ConnectPage } from './connect-page';

function renderConnect() {
  const root = createRootRoute({ component: Outlet });
  const routes = [
    createRoute({ getParentRoute: () => root, path: '/connect', component: ConnectPage }),
    createRoute({ getParentRoute: () => root, path: '/', component: () => <h1>Import shipments</h1> }),
  ];
  const router = createRouter({ routeTree: root.addChildren(routes), history: createMemoryHistory({ initialEntries: ['/connect'] }) });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const sandboxInfo = {
  sandbox: true,
  api_key: 'sandbox-demo-key-0123456789',
  workspace: { id: 'demo', name: 'Demo Logistics' },
  members: [],
  custom_fields: [],
  test_numbers: [],
};

const SANDBOX_SERVER = { mode: 'sandbox' };
const PROXY_SERVER = { mode: 'proxy', service: 'tracking.example.com', key_held_by_server: false };

/** A stand-in server: /console.json says what it is, every other URL goes to `handler`. */
function mockFetch(consoleInfo: object, handler: (url: string, init?: RequestInit) => Response) {
  const fetch = vi.fn((url: string, init?: RequestInit) => Promise.resolve(url === '/console.json' ? Response.json(consoleInfo) : handler(url, init)));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const asked = (fetch: ReturnType<typeof mockFetch>) => fetch.mock.calls.map(([url]) => url);

afterEach(() => {
  vi.unstubAllGlobals();
  forgetConnection();
});

describe('Connect', () => {
  it('connects to the local sandbox in one click and remembers its demo key on this device', async () => {
    mockFetch(SANDBOX_SERVER, (url, init) => {
      if (url === '/sandbox.json') return Response.json(sandboxInfo);
      expect((init?.headers as Record<string, string>).Authorization).toBe(`Bearer ${sandboxInfo.api_key}`);
      return Response.json({ data: [], pagination: {} });
    });
    renderConnect();
    // The first render of the file also loads the router: give it more than the default second on a busy machine.
    await userEvent.click(await screen.findByRole('button', { name: 'Use local sandbox' }, { timeout: 5000 }));
    expect(await screen.findByRole('heading', { name: 'Import shipments' })).toBeInTheDocument();
    expect(getConnection()).toMatchObject({ label: 'Local sandbox', workspace: 'Demo Logistics', remembered: true });
    // A demo key anyone on this origin can read from /sandbox.json: a reopened console finds it.
    expect(localStorage.getItem('import-console.connection')).toContain(sandboxInfo.api_key);
    expect(sessionStorage.length).toBe(0);
  });

  it('asks a proxy nothing of a sandbox: no /sandbox.json, no one-click button', async () => {
    const fetch = mockFetch(PROXY_SERVER, () => new Response('', { status: 404 }));
    renderConnect();
    await screen.findByLabelText('API key', {}, { timeout: 5000 });
    await waitFor(() => expect(asked(fetch)).toContain('/console.json'));
    // Let any query the answer enables start before looking.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked(fetch)).toEqual(['/console.json']);
    expect(screen.queryByRole('button', { name: 'Use local sandbox' })).not.toBeInTheDocument();
  });

  it('says why a key is refused and stores nothing', async () => {
    mockFetch(PROXY_SERVER, () => Response.json({ errors: [{ code: 'unauthorized', message: 'The API key is not valid.', target: null }] }, { status: 401 }));
    renderConnect();
    await userEvent.type(await screen.findByLabelText('API key'), 'wrong-key');
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The API key is not valid.');
    expect(getConnection()).toBeNull();
    expect(screen.queryByRole('button', { name: 'Use local sandbox' })).not.toBeInTheDocument();
  });

  it('remembers the key on this device only when asked', async () => {
    mockFetch(PROXY_SERVER, () => Response.json({ data: [] }));
    renderConnect();
    await userEvent.type(await screen.findByLabelText('API key'), 'my-real-key');
    await userEvent.click(screen.getByLabelText('Remember on this device'));
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await screen.findByRole('heading', { name: 'Import shipments' });
    expect(localStorage.getItem('import-console.connection')).toContain('my-real-key');
    expect(sessionStorage.length).toBe(0);
  });

  it('connects in one click when the server holds the key, and neither stores nor sends one', async () => {
    const fetch = mockFetch({ ...PROXY_SERVER, key_held_by_server: true }, () => Response.json({ data: [], pagination: {} }));
    renderConnect();
    expect(await screen.findByRole('heading', { name: 'The server holds the key' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Connect through this server' }));
    expect(await screen.findByRole('heading', { name: 'Import shipments' })).toBeInTheDocument();
    expect(getConnection()).toMatchObject({ label: 'tracking.example.com', keyHeldByServer: true, apiKey: '' });
    const apiCalls = fetch.mock.calls.filter(([url]) => url.startsWith('/api/v1/'));
    expect(apiCalls).toHaveLength(1);
    expect(apiCalls[0]?.[1]?.headers).not.toHaveProperty('Authorization');
    expect(JSON.parse(sessionStorage.getItem('import-console.connection') ?? '{}')).toMatchObject({ apiKey: '', keyHeldByServer: true });
    expect(localStorage.length).toBe(0);
  });

  it('stops at a 403 and says the key was refused or API access is not enabled, with the service words', async () => {
    const fetch = mockFetch(PROXY_SERVER, () => Response.json({ detail: 'API access is not enabled for this account.' }, { status: 403 }));
    renderConnect();
    await userEvent.type(await screen.findByLabelText('API key'), 'a-disabled-key');
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The service refused the API key, or API access is not enabled for this account (403). It said: API access is not enabled for this account.',
    );
    expect(fetch.mock.calls.filter(([url]) => url.startsWith('/api/v1/'))).toHaveLength(1);
    expect(getConnection()).toBeNull();
  });
});
