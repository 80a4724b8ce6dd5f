import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import { batchSchema, type Batch } from '../../../contract/batch';
import { shipmentListSchema } from '../../../contract/shipment';
import { AUTH, importList, sandbox, waitForBatch } from '../../test-support';

let app: FastifyInstance;
afterEach(async () => app.close());

const row = (reference: string, extra: Record<string, unknown> = {}) => ({
  reference,
  tracking_number: 'MSCU1234566',
  tracking_type: 'container',
  carrier_scac: 'MSCU',
  ...extra,
});

describe('POST /api/v1/shipments/imports', () => {
  test('answers 202 with the batch processing, one item per request, then completes it', async () => {
    app = await sandbox({ rowDelayMs: 20 });
    const response = await importList(app, [row('A-1', { name: 'First' }), row('A-2')]);
    expect(response.statusCode).toBe(202);
    const batch = batchSchema.parse(response.json());
    expect(batch).toMatchObject({ status: 'processing', total_requests: 2, completed_requests: 0, failure_reason: null });
    expect(batch.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(batch.results).toEqual([
      expect.objectContaining({ row_number: 1, reference: 'A-1', name: 'First', creation_status: 'processing', tracking_status: 'processing', shipment_id: null, errors: [], warnings: [] }),
      expect.objectContaining({ row_number: 2, reference: 'A-2', creation_status: 'processing', tracking_status: 'processing' }),
    ]);

    const done = await waitForBatch(app, batch.id);
    expect(done).toMatchObject({ status: 'completed', total_requests: 2, completed_requests: 2 });
    expect(done.results.map((item) => [item.creation_status, item.tracking_status])).toEqual([
      ['created', 'succeeded'],
      ['created', 'succeeded'],
    ]);
    expect(done.results[0]?.shipment_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('completed_requests climbs while the batch is processed row by row', async () => {
    app = await sandbox({ rowDelayMs: 30 });
    const batch = (await importList(app, [row('C-1'), row('C-2'), row('C-3'), row('C-4')])).json<Batch>();
    const seen = new Set<number>();
    let current = batch;
    while (current.status === 'processing') {
      seen.add(current.completed_requests);
      await new Promise((resolve) => setTimeout(resolve, 10));
      current = (await app.inject({ url: `/api/v1/shipments/imports/${batch.id}`, headers: AUTH })).json<Batch>();
    }
    expect(current.completed_requests).toBe(4);
    expect(seen.size).toBeGreaterThanOrEqual(2);
  });

  test('fails the rows that break the rules, each error naming its field', async () => {
    app = await sandbox();
    const response = await importList(app, [
      { tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU' },
      row('E-2', { tracking_type: 'truck' }),
      row('E-3', { tracking_type: 'bill_of_lading', tracking_number: 'MAEU123456789', carrier_scac: 'AUTO' }),
      row('E-4', { carrier_scac: 'M4ERSK' }),
      row('E-5', { tracking_number: '  ' }),
      'not an object',
      row('E-7', { tracking_type: 'booking', tracking_number: 'ZZZZ12345678' }),
      row('E-8', { tracking_number: 'x'.repeat(40_000) }),
    ]);
    const batch = await waitForBatch(app, response.json<Batch>().id);
    expect(batch).toMatchObject({ status: 'completed', completed_requests: 8 });
    const targets = batch.results.map((item) => item.errors.map((error) => error.target));
    expect(targets).toEqual([['reference'], ['tracking_type'], ['carrier_scac'], ['carrier_scac'], ['tracking_number'], [null], [], ['tracking_number']]);
    for (const item of batch.results.filter((_, index) => index !== 6)) {
      expect(item).toMatchObject({ creation_status: 'failed', tracking_status: 'failed', shipment_id: null });
      expect(item.errors[0]).toMatchObject({ code: 'invalid_input', message: expect.any(String) as string });
    }
    expect(batch.results[0]?.errors[0]?.message).toBe('reference is required');
    // A booking with its carrier given is fine even when the number names no known carrier.
    expect(batch.results[6]).toMatchObject({ creation_status: 'created', carrier_scac: 'MSCU' });
  });

  test('AUTO detects the carrier of a container', async () => {
    app = await sandbox();
    const response = await importList(app, [row('AUTO-1', { carrier_scac: 'AUTO', tracking_number: 'HLBU1000000' })]);
    const batch = await waitForBatch(app, response.json<Batch>().id);
    expect(batch.results[0]?.carrier_scac).toMatch(/^[A-Z]{4}$/);
    expect(batch.results[0]?.carrier_scac).not.toBe('AUTO');
  });

  test('a reference seen before updates that shipment, later rows of the same batch too', async () => {
    app = await sandbox();
    const first = await waitForBatch(app, (await importList(app, [row('UP-1', { name: 'Old name' })])).json<Batch>().id);
    const shipmentId = first.results[0]?.shipment_id;

    const second = await waitForBatch(
      app,
      (await importList(app, [row('UP-1', { name: 'New name' }), row('UP-2'), row('UP-2', { name: 'Named later' })])).json<Batch>().id,
    );
    expect(second.results.map((item) => item.creation_status)).toEqual(['updated', 'created', 'updated']);
    expect(second.results[0]?.shipment_id).toBe(shipmentId);
    expect(second.results[2]?.shipment_id).toBe(second.results[1]?.shipment_id);

    const list = shipmentListSchema.parse((await app.inject({ url: '/api/v1/shipments', headers: AUTH })).json());
    expect(list.pagination.total).toBe(2);
    expect(list.data.map((shipment) => [shipment.reference, shipment.name])).toEqual([
      ['UP-2', 'Named later'],
      ['UP-1', 'New name'],
    ]);
  });

  test('a request without a name leaves the stored name as it is', async () => {
    app = await sandbox();
    await waitForBatch(app, (await importList(app, [row('N-1', { name: 'Keep me' })])).json<Batch>().id);
    const again = await waitForBatch(app, (await importList(app, [row('N-1')])).json<Batch>().id);
    expect(again.results[0]).toMatchObject({ creation_status: 'updated', name: 'Keep me' });
  });

  test.each([
    ['a JSON object', JSON.stringify({ reference: 'x' }), 'application/json', /JSON array/],
    ['an empty list', '[]', 'application/json', /empty/],
    ['broken JSON', '[{"reference": ', 'application/json', /could not be read/],
    ['an empty body', '', 'application/json', /could not be read/],
    ['plain text', 'reference,tracking_number', 'text/plain', /JSON array/],
    ['a form', 'a=1', 'application/x-www-form-urlencoded', /content type/],
  ])('answers 400 bad_request to %s', async (_label, payload, contentType, message) => {
    app = await sandbox();
    const response = await app.inject({ method: 'POST', url: '/api/v1/shipments/imports', payload, headers: { ...AUTH, 'content-type': contentType } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ errors: [{ code: 'bad_request', message: expect.stringMatching(message) as string, target: null }] });
  });

  test('answers 413 too_large to more requests than a batch takes', async () => {
    app = await sandbox({ maxBatchRows: 3 });
    const response = await importList(app, [row('1'), row('2'), row('3'), row('4')]);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ errors: [{ code: 'too_large', message: expect.stringContaining('at most 3') as string }] });
  });

  test('answers 413 too_large to a body over the byte cap', async () => {
    app = await sandbox({ maxFileBytes: 1000 });
    const response = await importList(app, Array.from({ length: 20 }, (_, i) => row(`R-${i}`)));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ errors: [{ code: 'too_large' }] });
  });
});
