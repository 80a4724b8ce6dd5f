import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import type { Batch } from '../../../contract/batch';
import { AUTH, importList, sandbox, waitForBatch } from '../../test-support';

let app: FastifyInstance;
afterEach(async () => app.close());

async function oneShipment(): Promise<string> {
  const rows = [{ reference: 'T-1', tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU' }];
  const batch = await waitForBatch(app, (await importList(app, rows)).json<Batch>().id);
  return batch.results[0]?.shipment_id ?? '';
}

const patch = (url: string, payload: object) => app.inject({ method: 'PATCH', url, headers: AUTH, payload });

describe('PATCH: typed custom fields and the name cap, as on the real service', () => {
  test('answers 400 to a date custom field that is not a date, with a suggested fix', async () => {
    app = await sandbox();
    const id = await oneShipment();
    const response = await patch(`/api/v1/shipments/id/${id}`, { custom_fields: { eta: 'soon' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      errors: [{
        code: 'bad_request', target: 'custom_fields.eta',
        message: 'custom_fields.eta: expected a date (YYYY-MM-DD), not "soon".',
        suggested_fix: 'Write the date as YYYY-MM-DD, e.g. 2026-01-31.',
      }],
    });
    const ok = await patch(`/api/v1/shipments/id/${id}`, { custom_fields: { eta: '2026-01-31', po_number: 'soon' } });
    expect(ok.json()).toMatchObject({ custom_fields: { eta: '2026-01-31', po_number: 'soon' } });
    expect((await patch(`/api/v1/shipments/id/${id}`, { custom_fields: { eta: null } })).statusCode).toBe(200);
  });

  test('answers 400 to a name over 255 characters', async () => {
    app = await sandbox();
    const id = await oneShipment();
    const response = await patch(`/api/v1/shipments/reference/T-1`, { name: 'n'.repeat(256) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: [{ target: 'name', message: 'name is longer than 255 characters' }] });
    expect((await patch(`/api/v1/shipments/id/${id}`, { name: 'n'.repeat(255) })).statusCode).toBe(200);
  });
});
