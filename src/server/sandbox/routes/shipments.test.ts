import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Batch } from '../../../contract/batch';
import { sandboxInfoSchema } from '../../../contract/sandbox';
import { containerListSchema, shipmentListSchema, shipmentSchema } from '../../../contract/shipment';
import { MAX_PATH_PARAM_LENGTH } from '../../app';
import { DEMO_API_KEY } from '../sandbox-keys';
import { TEST_NUMBERS } from '../tracking/test-numbers';
import { AUTH, importList, sandbox, waitForBatch } from '../../test-support';

let app: FastifyInstance;
afterEach(async () => app.close());

const row = (reference: string, trackingNumber = 'MSCU1234566', type = 'container') => ({
  reference,
  tracking_number: trackingNumber,
  tracking_type: type,
  carrier_scac: 'MSCU',
});

async function importRows(rows: unknown[]): Promise<Batch> {
  return waitForBatch(app, (await importList(app, rows)).json<Batch>().id);
}

const get = (url: string) => app.inject({ url, headers: AUTH });
const patch = (url: string, payload: unknown) => app.inject({ method: 'PATCH', url, headers: AUTH, payload: payload as object });

describe('GET /api/v1/shipments', () => {
  test('lists newest first with pagination, with and without the trailing slash', async () => {
    app = await sandbox();
    await importRows([row('L-1'), row('L-2'), row('L-3')]);
    for (const url of ['/api/v1/shipments?page_size=2', '/api/v1/shipments/?page_size=2']) {
      const list = shipmentListSchema.parse((await get(url)).json());
      expect(list.data.map((shipment) => shipment.reference)).toEqual(['L-3', 'L-2']);
      expect(list.pagination).toEqual({ page: 1, page_size: 2, total: 3, total_pages: 2 });
    }
    const page2 = shipmentListSchema.parse((await get('/api/v1/shipments?page_size=2&page=2')).json());
    expect(page2.data.map((shipment) => shipment.reference)).toEqual(['L-1']);
    const beyond = shipmentListSchema.parse((await get('/api/v1/shipments?page=9')).json());
    expect(beyond).toMatchObject({ data: [], pagination: { page: 9, page_size: 25, total: 3, total_pages: 1 } });
  });

  test('batch_id returns the shipments created or updated by that batch', async () => {
    app = await sandbox();
    const first = await importRows([row('B-1'), row('B-2')]);
    const second = await importRows([row('B-2'), row('B-3')]);
    const ofSecond = shipmentListSchema.parse((await get(`/api/v1/shipments?batch_id=${second.id}`)).json());
    expect(ofSecond.data.map((shipment) => shipment.reference)).toEqual(['B-3', 'B-2']);
    expect(ofSecond.pagination.total).toBe(2);
    const ofFirst = shipmentListSchema.parse((await get(`/api/v1/shipments/?batch_id=${first.id}`)).json());
    expect(ofFirst.data.map((shipment) => shipment.reference)).toEqual(['B-2', 'B-1']);
  });

  test('a shipment has the spec fields, tracking with real ports and its containers_uri', async () => {
    app = await sandbox();
    const batch = await importRows([row('S-1')]);
    const shipment = shipmentSchema.parse(shipmentListSchema.parse((await get('/api/v1/shipments')).json()).data[0]);
    expect(shipment).toMatchObject({
      id: batch.results[0]?.shipment_id,
      reference: 'S-1',
      tracking_number: 'MSCU1234566',
      tracking_type: 'container',
      carrier_scac: 'MSCU',
      last_process_status: 'track_succeeded',
      last_process_failure_reason: null,
      data_status: 'success',
      container_stage: null,
      custom_fields: {},
    });
    expect(shipment.tracking).toMatchObject({
      tracking_freshness: 'ok',
      pol: { locode: expect.stringMatching(/^[A-Z]{5}$/) as string, date: expect.any(String) as string },
      pod: { locode: expect.stringMatching(/^[A-Z]{5}$/) as string },
      containers_uri: `/api/v1/shipment/${shipment.id}/containers`,
    });
  });

  test.each([
    ['page=0', 'page'],
    ['page=two', 'page'],
    ['page_size=101', 'page_size'],
    ['page_size=0', 'page_size'],
    ['batch_id=not-a-uuid', 'batch_id'],
  ])('answers 400 bad_request to %s', async (query, target) => {
    app = await sandbox();
    const response = await get(`/api/v1/shipments?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ errors: [{ code: 'bad_request', message: expect.any(String) as string, target }] });
  });

  test('answers 404 not_found for a batch_id that is not a batch', async () => {
    app = await sandbox();
    const response = await get('/api/v1/shipments?batch_id=6f1c0d1e-8b7a-4c55-9a3e-1f2b3c4d5e6f');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ errors: [{ code: 'not_found', target: 'batch_id' }] });
  });
});

describe('GET /api/v1/shipments/imports/:batch_id', () => {
  test('answers 404 not_found for an unknown batch', async () => {
    app = await sandbox();
    const response = await get('/api/v1/shipments/imports/6f1c0d1e-8b7a-4c55-9a3e-1f2b3c4d5e6f');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ errors: [{ code: 'not_found', message: expect.stringContaining('6f1c0d1e') as string, target: 'batch_id' }] });
  });
});

describe('PATCH /api/v1/shipments/id/:id and /reference/:reference', () => {
  let shipmentId: string;
  beforeEach(async () => {
    app = await sandbox();
    shipmentId = (await importRows([row('P/1')])).results[0]?.shipment_id ?? '';
  });

  test('updates by id and returns the shipment', async () => {
    const response = await patch(`/api/v1/shipments/id/${shipmentId}`, {
      name: 'Renamed',
      tags: ['hot'],
      viewers: ['guest@example.org'],
      assignees: ['ana.lopez@example.com'],
      custom_fields: { po_number: 'PO-1', incoterm: 'CIF' },
    });
    expect(response.statusCode).toBe(200);
    expect(shipmentSchema.parse(response.json())).toMatchObject({
      id: shipmentId,
      name: 'Renamed',
      tags: ['hot'],
      viewers: ['guest@example.org'],
      assignees: ['ana.lopez@example.com'],
      custom_fields: { po_number: 'PO-1', incoterm: 'CIF' },
    });
  });

  test('updates by an encoded reference; null removes a custom field, other fields stay', async () => {
    await patch(`/api/v1/shipments/id/${shipmentId}`, { name: 'Kept', custom_fields: { po_number: 'PO-1', eta: '2026-02-01' } });
    const response = await patch(`/api/v1/shipments/reference/${encodeURIComponent('P/1')}`, { custom_fields: { po_number: null } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: shipmentId, name: 'Kept', custom_fields: { eta: '2026-02-01' } });
    expect(response.json<{ custom_fields: object }>().custom_fields).not.toHaveProperty('po_number');
  });

  test.each([
    [{}, null, /names no field/],
    [{ tracking_number: 'X' }, null, /Only name, tags/],
    [{ tags: 'hot' }, 'tags', /./],
    [{ viewers: ['nope'] }, 'viewers', /not an e-mail/],
    [{ assignees: ['stranger@example.org'] }, 'assignees', /not a member/],
    [{ custom_fields: { colour: 'red' } }, 'custom_fields.colour', /no custom field "colour"/],
  ])('answers 400 bad_request to %j', async (payload, target, message) => {
    const response = await patch(`/api/v1/shipments/id/${shipmentId}`, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ errors: [{ code: 'bad_request', message: expect.stringMatching(message) as string, target }] });
  });

  test('answers 400 bad_request to a reference that is not valid percent-encoding', async () => {
    const response = await patch('/api/v1/shipments/reference/%E0%A4%A', { name: 'x' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: [{ code: 'bad_request', message: expect.stringContaining('could not be decoded') as string }] });
  });

  test('updates by a reference as long as a cell may be, well past Fastify’s default of 100 characters', async () => {
    const reference = `R/${'é'.repeat(MAX_PATH_PARAM_LENGTH - 2)}`;
    const created = (await importRows([row(reference)])).results[0];
    expect(created?.creation_status).toBe('created');
    const response = await patch(`/api/v1/shipments/reference/${encodeURIComponent(reference)}`, { name: 'Long' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: created?.shipment_id, reference, name: 'Long' });
  });

  test('answers 400 bad_request naming the limit to a reference one character longer', async () => {
    const response = await patch(`/api/v1/shipments/reference/${'R'.repeat(MAX_PATH_PARAM_LENGTH + 1)}`, { name: 'x' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      errors: [{ code: 'bad_request', message: 'A part of the URL path is longer than 32,767 characters, the longest id or reference this service accepts.', target: null }],
    });
  });

  test('answers 404 not_found for an unknown id or reference', async () => {
    const byId = await patch('/api/v1/shipments/id/6f1c0d1e-8b7a-4c55-9a3e-1f2b3c4d5e6f', { name: 'x' });
    const byReference = await patch('/api/v1/shipments/reference/NOPE', { name: 'x' });
    expect([byId.statusCode, byReference.statusCode]).toEqual([404, 404]);
    expect(byReference.json()).toMatchObject({ errors: [{ code: 'not_found', message: expect.stringContaining('NOPE') as string }] });
  });
});

describe('GET /api/v1/shipment/:id/containers', () => {
  test('one container for a container number, one to three for a bill of lading', async () => {
    app = await sandbox();
    const batch = await importRows([row('K-1'), row('K-2', 'MSCU240000001', 'bill_of_lading')]);
    const [container, billOfLading] = batch.results.map((item) => item.shipment_id ?? '');
    const ofContainer = containerListSchema.parse((await get(`/api/v1/shipment/${container}/containers`)).json());
    expect(ofContainer.data).toHaveLength(1);
    expect(ofContainer.data[0]).toMatchObject({ number: 'MSCU1234566', iso_type: expect.any(String) as string, status: expect.any(String) as string });
    expect(ofContainer.data[0]?.events.length).toBeGreaterThan(3);
    const ofBl = containerListSchema.parse((await get(`/api/v1/shipment/${billOfLading}/containers`)).json());
    expect(ofBl.data.length).toBeGreaterThanOrEqual(1);
    expect(ofBl.data.length).toBeLessThanOrEqual(3);
  });

  test('answers 404 not_found for an unknown shipment', async () => {
    app = await sandbox();
    const response = await get('/api/v1/shipment/6f1c0d1e-8b7a-4c55-9a3e-1f2b3c4d5e6f/containers');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ errors: [{ code: 'not_found', target: 'id' }] });
  });
});

describe('sandbox extensions', () => {
  test('GET /api/v1/custom_fields lists the seeded custom fields', async () => {
    app = await sandbox();
    expect((await get('/api/v1/custom_fields')).json()).toEqual({
      data: [
        { slug: 'eta', name: 'ETA' },
        { slug: 'incoterm', name: 'Incoterm' },
        { slug: 'po_number', name: 'PO number' },
      ],
    });
  });

  test('GET /sandbox.json hands out the demo key, members, custom fields and test numbers without a key', async () => {
    app = await sandbox();
    const response = await app.inject({ url: '/sandbox.json' });
    expect(response.statusCode).toBe(200);
    const info = sandboxInfoSchema.parse(response.json());
    expect(info).toMatchObject({ sandbox: true, api_key: DEMO_API_KEY, workspace: { id: 'demo' } });
    expect(info.members).toContain('ana.lopez@example.com');
    expect(info.custom_fields.map((field) => field.slug).sort()).toEqual(['eta', 'incoterm', 'po_number']);
    expect(info.test_numbers).toHaveLength(TEST_NUMBERS.length);
  });

  test('GET /sandbox.json advertises the upload caps, so the console cuts chunks to fit', async () => {
    app = await sandbox({ maxBatchRows: 10, maxFileBytes: 4096 });
    const info = sandboxInfoSchema.parse((await app.inject({ url: '/sandbox.json' })).json());
    expect(info).toMatchObject({ max_batch_rows: 10, max_file_bytes: 4096 });
  });

  test('unknown paths under /api/v1 answer 404 not_found', async () => {
    app = await sandbox();
    const response = await get('/api/v1/nothing-here');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ errors: [{ code: 'not_found' }] });
  });
});
