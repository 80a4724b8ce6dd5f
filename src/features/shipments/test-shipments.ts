// Shipments as the sandbox sends them, for this feature's tests.
import { shipmentSchema, type Shipment } from '../../contract/shipment';

export function testShipment(n: number, overrides: Record<string, unknown> = {}): Shipment {
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return shipmentSchema.parse({
    id,
    reference: `REF-${n}`,
    tracking_number: 'MAEU123456789',
    tracking_type: 'bill_of_lading',
    carrier_scac: 'MAEU',
    name: 'Bikes',
    tags: ['urgent'],
    viewers: [],
    assignees: [],
    last_process_status: 'track_succeeded',
    last_process_failure_reason: null,
    custom_fields: { po_number: 'PO-9' },
    tracking: {
      pol: { locode: 'CNSHA', name: 'Shanghai', date: '2026-01-02T00:00:00.000Z', actual: true },
      pod: { locode: 'NLRTM', name: 'Rotterdam', date: '2026-02-03T00:00:00.000Z', actual: false },
      containers_uri: `/api/v1/shipment/${id}/containers`,
    },
    ...overrides,
  });
}
