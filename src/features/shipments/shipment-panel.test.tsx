import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CustomFieldInput } from './shipment-edit';
import { ShipmentPanel } from './shipment-panel';
import { testShipment } from './test-shipments';

const target = { baseUrl: 'https://tracking.example.com', apiKey: 'secret-key-123' };
const shipment = testShipment(7);
const fields: CustomFieldInput[] = [
  { slug: 'po_number', name: 'PO number', isDate: false },
  { slug: 'eta', name: 'ETA', isDate: true },
];
const containers = {
  data: [
    {
      number: 'MSKU1234565',
      iso_type: '45G1',
      status: 'vessel_departed',
      events: [
        { code: 'loaded', description: 'Loaded on the vessel', location: 'Shanghai (CNSHA)', date: '2026-01-01T00:00:00.000Z', actual: true },
        { code: 'vessel_arrived', description: 'Vessel arrived', location: 'Rotterdam (NLRTM)', date: '2026-02-03T00:00:00.000Z', actual: false },
      ],
    },
  ],
};

/** A stand-in service for the containers and the PATCH; records what was PATCHed. */
function standIn(patchAnswer: (body: unknown) => Response = (body) => Response.json({ ...shipment, ...(body as object) })) {
  const patches: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      if (init?.method === 'PATCH') {
        const body: unknown = JSON.parse(init.body as string);
        patches.push({ url, body });
        return Promise.resolve(patchAnswer(body));
      }
      if (url.endsWith(`/api/v1/shipment/${shipment.id}/containers`)) return Promise.resolve(Response.json(containers));
      return Promise.resolve(new Response('not here', { status: 404 }));
    }),
  );
  return patches;
}

function renderPanel(onClose = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ShipmentPanel target={target} shipment={shipment} customFields={fields} members={new Set(['ana.lopez@example.com'])} onClose={onClose} />
    </QueryClientProvider>,
  );
  return { onClose, panel: screen.getByRole('dialog', { name: 'REF-7' }) };
}

afterEach(() => vi.unstubAllGlobals());

describe('Shipment panel', () => {
  it('takes focus, lists the containers with their events as actual or planned, and closes on Escape', async () => {
    standIn();
    const { onClose, panel } = renderPanel();
    expect(within(panel).getByRole('heading', { name: 'REF-7' })).toHaveFocus();
    const events = within(await within(panel).findByRole('list', { name: 'Events of MSKU1234565' })).getAllByRole('listitem');
    expect(events.map((event) => event.textContent)).toEqual([
      'Loaded on the vesselActual · 2026-01-01 · Shanghai (CNSHA)',
      'Vessel arrivedPlanned · 2026-02-03 · Rotterdam (NLRTM)',
    ]);
    expect(within(panel).getByText('Type 45G1 · Status: vessel departed')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledOnce();
  });

  it.each([
    ['Viewers', 'ana.lopez@example.com, bob@', 'viewers: “bob@” is not an e-mail address.'],
    ['Assignees', 'zed@example.com', 'assignees: zed@example.com is not a member of this workspace, so it cannot be assigned.'],
    ['Name', 'x'.repeat(256), 'name: 256 characters; the limit is 255.'],
    ['ETA', '31/12/2026', 'cf_eta: “31/12/2026” is not a date; write it as YYYY-MM-DD.'],
  ])('refuses a bad %s with a sentence, marks the field and sends nothing', async (label, value, sentence) => {
    const patches = standIn();
    const { panel } = renderPanel();
    const input = within(panel).getByLabelText(label);
    await userEvent.clear(input);
    await userEvent.click(input);
    await userEvent.paste(value);
    await userEvent.click(within(panel).getByRole('button', { name: 'Save changes' }));
    expect(within(panel).getByRole('alert')).toHaveTextContent(sentence);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(expect.stringContaining(sentence) as string);
    expect(patches).toEqual([]);
  });

  it('saves only the changed fields by PATCH and says so', async () => {
    const patches = standIn();
    const { panel } = renderPanel();
    await userEvent.clear(within(panel).getByLabelText('Name'));
    await userEvent.type(within(panel).getByLabelText('Name'), 'Bicycles');
    await userEvent.type(within(panel).getByLabelText('ETA'), '2026-03-01');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save changes' }));
    expect(await within(panel).findByText('The shipment is updated; the list shows the new values.')).toBeInTheDocument();
    expect(patches).toEqual([
      { url: `https://tracking.example.com/api/v1/shipments/id/${shipment.id}`, body: { name: 'Bicycles', custom_fields: { eta: '2026-03-01' } } },
    ]);
  });

  it('shows the service\'s refusal as a sentence, on the field it names', async () => {
    standIn(() =>
      Response.json(
        { errors: [{ code: 'CUSTOM_FIELD_INVALID_TYPE', message: 'PO number must be text.', target: 'custom_fields.po_number', suggested_fix: 'Send the PO number as a string.' }] },
        { status: 400 },
      ),
    );
    const { panel } = renderPanel();
    await userEvent.clear(within(panel).getByLabelText('PO number'));
    await userEvent.type(within(panel).getByLabelText('PO number'), 'PO-10');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save changes' }));
    const alert = await within(panel).findByRole('alert');
    expect(alert).toHaveTextContent('The service refused the update');
    expect(alert).toHaveTextContent('PO number must be text.');
    expect(within(panel).getByLabelText('PO number')).toHaveAttribute('aria-invalid', 'true');
  });
});
