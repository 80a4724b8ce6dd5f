import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RememberedMapping } from '../../contract/remembered-mapping';
import { RememberedMappingsList, useRememberedMappings } from './remembered-mappings';

// The console's own server: the workspace's mappings are there.
const target = { baseUrl: '', apiKey: 'sandbox-demo-key-4173' };
const STORAGE_KEY = 'import-console.mappings:';

function record(fingerprint: string, fileName: string, savedAt: number, savedBy: string | null): RememberedMapping {
  return {
    fingerprint,
    fileName,
    sheet: null,
    headerRow: 0,
    columns: [
      { header: 'Equipment', target: 'tracking_number' },
      { header: 'Basis', target: 'tracking_type' },
      { header: 'Cargo', target: null },
    ],
    savedAt,
    savedBy,
  };
}

const F1 = '1111111111111111';
const F2 = '2222222222222222';

/** A stand-in console server holding `server`; records the DELETEs. */
function standIn(server: RememberedMapping[]) {
  const deleted: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      if (init?.method === 'DELETE') {
        deleted.push(url);
        return Promise.resolve(new Response(null, { status: 204 }));
      }
      if (url.endsWith('/console/api/mappings')) return Promise.resolve(Response.json({ data: server.filter((m) => !deleted.some((d) => d.endsWith(m.fingerprint))) }));
      return Promise.resolve(new Response('not here', { status: 404 }));
    }),
  );
  return deleted;
}

function Harness() {
  const remembered = useRememberedMappings(target);
  return <RememberedMappingsList remembered={remembered} target={target} />;
}

function renderList() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Harness />
    </QueryClientProvider>,
  );
}

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('Remembered mappings on the Import page', () => {
  it("lists this browser's and the team's, the newer record of each set of headers first, and Forget forgets it in both", async () => {
    localStorage.setItem(
      STORAGE_KEY,
      JSON.stringify({ [F1]: record(F1, 'week-45-here.csv', 1_000, 'Ana'), [F2]: record(F2, 'week-47-here.csv', 3_000, 'Ana'), bad: { fingerprint: 'x' } }),
    );
    const deleted = standIn([record(F1, 'week-46-team.csv', 2_000, 'Bea'), record(F2, 'week-44-team.csv', 500, 'Bea')]);
    renderList();

    const table = await screen.findByRole('table');
    await waitFor(() => expect(within(table).getAllByRole('row').slice(1).map((row) => row.querySelector('th')?.textContent)).toEqual(['week-47-here.csv', 'week-46-team.csv']));
    const team = within(table).getByRole('row', { name: /week-46-team\.csv/ });
    expect(team).toHaveTextContent('Bea');
    expect(team).toHaveTextContent('2 of 3 columns imported');
    expect(team).toHaveTextContent('For the team');

    await userEvent.click(screen.getByRole('button', { name: 'Forget the mapping of week-47-here.csv' }));
    await waitFor(() => expect(screen.queryByText('week-47-here.csv')).not.toBeInTheDocument());
    expect(deleted).toEqual([`/console/api/mappings/${F2}`]);
    expect(Object.keys(JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as object)).toEqual([F1]);
    expect(screen.getByText('week-46-team.csv')).toBeInTheDocument();
  });

  it('shows nothing while nothing is remembered', async () => {
    standIn([]);
    renderList();
    await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalled());
    expect(screen.queryByRole('heading', { name: 'Remembered mappings' })).not.toBeInTheDocument();
  });
});
