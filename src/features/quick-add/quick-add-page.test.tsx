import 'fake-indexeddb/auto';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider, useParams } from '@tanstack/react-router';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetConnection, saveConnection } from '../../api/connection-store';
import { jobStore } from '../../jobs/job-runtime';
import { QuickAddPage } from './quick-add-page';

function JobPageStub() {
  const { jobId } = useParams({ strict: false });
  return <h1>Job {jobId}</h1>;
}

function renderQuickAdd() {
  const root = createRootRoute({ component: Outlet });
  const routes = [
    createRoute({ getParentRoute: () => root, path: '/quick-add', component: QuickAddPage }),
    createRoute({ getParentRoute: () => root, path: '/imports/$jobId', component: JobPageStub }),
    createRoute({ getParentRoute: () => root, path: '/', component: () => <h1>Import shipments</h1> }),
    createRoute({ getParentRoute: () => root, path: '/connect', component: () => <h1>Connect</h1> }),
  ];
  const router = createRouter({ routeTree: root.addChildren(routes), history: createMemoryHistory({ initialEntries: ['/quick-add'] }) });
  render(<RouterProvider router={router} />);
}

// The tracking type cell offers its three values (a datalist), so it is a combobox.
const cell = (label: string, row: number) => screen.getByRole(label === 'Tracking type' ? 'combobox' : 'textbox', { name: `${label}, row ${row}` });

const realFetch = globalThis.fetch;

beforeEach(() => {
  // jsdom lays nothing out: give the grid's scroll box a height so the virtualizer shows rows.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
  // Nor does it scroll: the grid scrolls a focused cell into view.
  Element.prototype.scrollIntoView = () => undefined;
  saveConnection({ baseUrl: '', apiKey: 'sandbox-demo-key', label: 'Local sandbox', workspace: 'Demo', sandbox: true, keyHeldByServer: false, remembered: false });
  // The console's server (its /console.json) runs no jobs, as with CONSOLE_RUNS_JOBS=off: they run in this tab; handing a job to the server is routed-storage.test.ts's.
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    input === '/console.json' ? Promise.resolve(Response.json({ mode: 'sandbox', runs_jobs: false })) : realFetch(input, init),
  );
});

afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  forgetConnection();
  for (const job of await jobStore.listJobs()) await jobStore.deleteJob(job.id);
});

// Generous timeouts: this machine's cores are shared.
describe('Quick add', { timeout: 20_000 }, () => {
  it('lays out cells pasted from a spreadsheet, reading its header row', async () => {
    renderQuickAdd();
    await userEvent.click(await screen.findByRole('textbox', { name: 'Reference, row 1' }));
    await userEvent.paste('Ref\tContainer No\tType\tSCAC\n PO-1\tCSQU3054383\tcontainer\tmaeu\nPO-2\tMAEU123456789\tB/L\tMAEU\n');
    expect(cell('Reference', 1)).toHaveValue(' PO-1');
    expect(cell('Tracking number', 2)).toHaveValue('MAEU123456789');
    expect(cell('Carrier SCAC', 1)).toHaveValue('maeu');
    expect(screen.getByText('Read the first line as a header.')).toBeInTheDocument();
    // The auto-fixes are shown on their cells, in words.
    expect(cell('Carrier SCAC', 1)).toHaveAccessibleDescription('Auto-fix: carrier_scac: changed “maeu” to “MAEU” (upper-cased).');
    expect(cell('Tracking type', 2)).toHaveAccessibleDescription('Auto-fix: tracking_type: changed “B/L” to “bill_of_lading” (“B/L” means bill_of_lading).');
    expect(screen.getByText('2 shipments: 2 ready, 0 with errors, 0 with warnings.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send 2 shipments' })).toBeInTheDocument();
  });

  it('shows each cell’s errors in words, offers the fix, and sends nothing while a row has errors', async () => {
    renderQuickAdd();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Reference, row 1' }), 'PO-1');
    await userEvent.type(cell('Tracking number', 1), 'CSQU3054384');
    await userEvent.type(cell('Tracking type', 1), 'container');
    expect(cell('Tracking number', 1)).toBeInvalid();
    expect(cell('Tracking number', 1)).toHaveAccessibleDescription('Error: tracking_number: check digit should be 3. Use CSQU3054383');
    expect(cell('Carrier SCAC', 1)).toHaveAccessibleDescription('Error: carrier_scac: empty; the list import needs a SCAC, or AUTO for a container.');

    await userEvent.click(screen.getByRole('button', { name: 'Send 1 shipment' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Fix or remove the row with errors first');
    expect(cell('Tracking number', 1)).toHaveFocus();
    expect(await jobStore.listJobs()).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Use CSQU3054383 for Tracking number, row 1' }));
    expect(cell('Tracking number', 1)).toHaveValue('CSQU3054383');
    expect(cell('Tracking number', 1)).toBeValid();
  });

  it('moves between rows with the arrow keys and grows by a row on Enter in the last one', async () => {
    renderQuickAdd();
    await userEvent.click(await screen.findByRole('textbox', { name: 'Name, row 1' }));
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(cell('Name', 3)).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(cell('Name', 4)).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}');
    expect(cell('Name', 3)).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Remove row 3' }));
    expect(screen.queryByRole('textbox', { name: 'Name, row 4' })).not.toBeInTheDocument();
  });

  it('goes across the cells with Tab, row after row, and leaves the grid from its last cell', async () => {
    renderQuickAdd();
    await userEvent.click(await screen.findByRole('textbox', { name: 'Name, row 1' }));
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Remove row 1' })).toHaveFocus();
    await userEvent.tab();
    expect(cell('Reference', 2)).toHaveFocus();
    await userEvent.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Remove row 1' })).toHaveFocus();
    await userEvent.click(cell('Name', 3));
    await userEvent.tab();
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Add row' })).toHaveFocus();
  });

  it('stops at 500 rows and says so, with only the rows in sight in the page, and every row in reach of the keys', async () => {
    renderQuickAdd();
    await userEvent.click(await screen.findByRole('textbox', { name: 'Reference, row 1' }));
    const lines = Array.from({ length: 510 }, (_, i) => `R${i}\tCSQU3054383\tcontainer\tAUTO`);
    await userEvent.paste(lines.join('\n'));
    expect(screen.getByText('Kept 500 of the 510 pasted rows: quick add takes up to 500 shipments. Import a file for more.')).toBeInTheDocument();
    expect(screen.getByText('500 shipments: 500 ready, 0 with errors, 0 with warnings.')).toBeInTheDocument();
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '501');
    // A window of rows, not 2,500 inputs.
    expect(document.querySelectorAll('input').length).toBeLessThan(200);
    expect(screen.getByText('Add row')).toBeDisabled();
    expect(screen.getByText('Quick add takes up to 500 shipments at a time. For more, import a file.')).toBeInTheDocument();

    screen.getByRole('button', { name: 'Remove row 1' }).focus();
    await userEvent.keyboard('{Control>}{End}{/Control}');
    expect(screen.getByRole('button', { name: 'Remove row 500' })).toHaveFocus();
    await userEvent.tab({ shift: true });
    await userEvent.tab({ shift: true });
    await userEvent.tab({ shift: true });
    await userEvent.tab({ shift: true });
    await userEvent.tab({ shift: true });
    expect(cell('Reference', 500)).toHaveFocus();
    expect(cell('Reference', 500)).toHaveValue('R499');
    expect(screen.queryByDisplayValue('R500')).not.toBeInTheDocument();
  });

  it('creates a JSON list job of the normalized rows and opens its page', async () => {
    renderQuickAdd();
    await userEvent.click(await screen.findByRole('textbox', { name: 'Reference, row 1' }));
    await userEvent.paste('PO-1\tcsqu 305438 3\tContainer\tAUTO\tFirst\nPO-2\tMAEU123456789\tbl\tmaeu\n');
    await userEvent.click(screen.getByRole('button', { name: 'Send 2 shipments' }));

    const heading = await screen.findByRole('heading', { name: /^Job / });
    const [job] = await jobStore.listJobs();
    expect(heading).toHaveTextContent(`Job ${job?.id}`);
    expect(job).toMatchObject({ source: { kind: 'quick-add' }, endpoint: 'list', rowsRead: 2, skippedBeforeSend: [], runState: 'running' });
    const payload = await jobStore.getPayload(job!.id, job!.chunks[0]!.id);
    expect(payload).toMatchObject({
      rowNumbers: [1, 2],
      body: {
        format: 'json',
        requests: [
          { reference: 'PO-1', tracking_number: 'CSQU3054383', tracking_type: 'container', carrier_scac: 'AUTO', name: 'First' },
          { reference: 'PO-2', tracking_number: 'MAEU123456789', tracking_type: 'bill_of_lading', carrier_scac: 'MAEU' },
        ],
      },
    });
  });
});
