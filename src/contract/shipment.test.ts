import { describe, expect, it } from 'vitest';
import { shipmentListQuerySchema, shipmentListSchema, shipmentPatchSchema, shipmentSchema } from './shipment';

const specShipment = {
  id: '3d6f0a4e-7c1b-4f7e-9d7a-000000000001',
  reference: 'PO-1001',
  tracking_number: 'MEDU1234566',
  tracking_type: 'container',
  carrier_scac: 'MSCU',
  last_process_status: 'track_succeeded',
  last_process_failure_reason: null,
  data_status: 'success',
  container_stage: null,
  custom_fields: {},
  tracking: {
    tracking_freshness: 'ok',
    pre: null,
    pol: { locode: 'CNSHA', name: 'Shanghai', vessel: 'MSC ANNA' },
    pod: null,
    pde: null,
    containers_uri: '/api/v1/shipment/3d6f0a4e-7c1b-4f7e-9d7a-000000000001/containers',
  },
};

describe('shipment schema', () => {
  it('parses the documented shipment, keeping unknown port-call fields', () => {
    const shipment = shipmentSchema.parse(specShipment);
    expect(shipment.tracking.pol).toMatchObject({ locode: 'CNSHA', vessel: 'MSC ANNA' });
    expect(shipment.tracking.containers_uri).toMatch(/\/containers$/);
  });

  it('accepts unobserved statuses and custom fields of any value', () => {
    const shipment = shipmentSchema.parse({
      ...specShipment,
      last_process_status: 'track_pending',
      data_status: 'partial',
      custom_fields: { po_number: 'PO-9', eta: '2026-12-01' },
    });
    expect(shipment.last_process_status).toBe('track_pending');
    expect(shipment.custom_fields).toEqual({ po_number: 'PO-9', eta: '2026-12-01' });
  });

  it('rejects a shipment without tracking or with a number that is not text', () => {
    expect(shipmentSchema.safeParse({ ...specShipment, tracking: undefined }).success).toBe(false);
    expect(shipmentSchema.safeParse({ ...specShipment, tracking_number: 42 }).success).toBe(false);
  });

  it('parses a list page whose pagination shape is unknown', () => {
    expect(shipmentListSchema.parse({ data: [specShipment], pagination: { next_cursor: 'abc' } }).pagination).toEqual({ next_cursor: 'abc' });
    expect(shipmentListSchema.parse({ data: [] }).pagination).toEqual({});
  });
});

describe('shipment list query', () => {
  it('defaults to the first page of 25', () => {
    expect(shipmentListQuerySchema.parse({})).toEqual({ page: 1, page_size: 25 });
  });

  it.each([
    [{ page: '0' }, 'page starts at 1'],
    [{ page: 'two' }, 'page must be a whole number'],
    [{ page_size: '101' }, 'page_size must be at most 100'],
    [{ batch_id: 'not-a-uuid' }, 'batch_id must be a UUID'],
  ])('explains a bad query %j', (query, message) => {
    const result = shipmentListQuerySchema.safeParse(query);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });
});

describe('shipment patch', () => {
  it('takes any of the documented fields and refuses unknown ones or an empty update', () => {
    expect(shipmentPatchSchema.parse({ name: 'New', tags: ['a'] })).toEqual({ name: 'New', tags: ['a'] });
    expect(shipmentPatchSchema.safeParse({ reference: 'X' }).success).toBe(false);
    expect(shipmentPatchSchema.safeParse({}).success).toBe(false);
  });
});
