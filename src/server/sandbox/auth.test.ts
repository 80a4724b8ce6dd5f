import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import type { Batch } from '../../contract/batch';
import { findWorkspace } from './auth';
import { hashKey } from './store/workspaces';
import { importList, sandbox, waitForBatch } from '../test-support';

const KEY_A = 'key-of-workspace-a-0001';
const KEY_B = 'key-of-workspace-b-0002';
const A = { authorization: `Bearer ${KEY_A}` };
const B = { authorization: `Bearer ${KEY_B}` };

let app: FastifyInstance;
afterEach(async () => app.close());

describe('authentication', () => {
  test.each([
    ['no header', {}],
    ['an empty header', { authorization: '' }],
    ['a key of another scheme', { authorization: `Basic ${KEY_A}` }],
    ['an unknown key', { authorization: 'Bearer not-a-key-of-this-sandbox' }],
  ])('rejects a request with %s with 401 unauthorized', async (_label, headers) => {
    app = await sandbox({ apiKeys: [{ key: KEY_A, workspace: 'a' }] });
    const response = await app.inject({ url: '/api/v1/shipments', headers });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(response.json()).toEqual({ errors: [{ code: 'unauthorized', message: expect.stringMatching(/key/) as string, target: null }] });
  });

  test('accepts the key with any case of "Bearer"', async () => {
    app = await sandbox({ apiKeys: [{ key: KEY_A, workspace: 'a' }] });
    const response = await app.inject({ url: '/api/v1/custom_fields', headers: { authorization: `bearer ${KEY_A}` } });
    expect(response.statusCode).toBe(200);
  });

  test('finds the workspace of a key among several, and none for a prefix of a key', () => {
    const known = [
      { keyHash: hashKey(KEY_A), workspaceId: 'a' },
      { keyHash: hashKey(KEY_B), workspaceId: 'b' },
    ];
    expect(findWorkspace(known, KEY_B)).toBe('b');
    expect(findWorkspace(known, KEY_A.slice(0, -1))).toBeNull();
  });
});

describe('workspace isolation', () => {
  test("a key sees none of another workspace's batches, shipments or containers", async () => {
    app = await sandbox({ apiKeys: [{ key: KEY_A, workspace: 'a' }, { key: KEY_B, workspace: 'b' }] });
    const created = await importList(app, [{ reference: 'SHARED-REF', tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU' }], A);
    const batch = await waitForBatch(app, created.json<Batch>().id, 5000, A);
    const shipmentId = batch.results[0]?.shipment_id ?? '';

    const asB = (url: string) => app.inject({ url, headers: B });
    expect((await asB(`/api/v1/shipments/imports/${batch.id}`)).statusCode).toBe(404);
    expect((await asB(`/api/v1/shipments?batch_id=${batch.id}`)).statusCode).toBe(404);
    expect((await asB(`/api/v1/shipment/${shipmentId}/containers`)).statusCode).toBe(404);
    expect((await asB('/api/v1/shipments')).json()).toMatchObject({ data: [], pagination: { total: 0 } });
    const patchById = await app.inject({ method: 'PATCH', url: `/api/v1/shipments/id/${shipmentId}`, headers: B, payload: { name: 'x' } });
    const patchByRef = await app.inject({ method: 'PATCH', url: '/api/v1/shipments/reference/SHARED-REF', headers: B, payload: { name: 'x' } });
    expect([patchById.statusCode, patchByRef.statusCode]).toEqual([404, 404]);
    expect(patchById.json()).toMatchObject({ errors: [{ code: 'not_found' }] });

    // The same reference in workspace b creates b's own shipment instead of updating a's.
    const inB = await importList(app, [{ reference: 'SHARED-REF', tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU' }], B);
    const batchB = await waitForBatch(app, inB.json<Batch>().id, 5000, B);
    expect(batchB.results[0]).toMatchObject({ creation_status: 'created' });
    expect(batchB.results[0]?.shipment_id).not.toBe(shipmentId);
  });
});

describe('a disabled key', () => {
  test('is refused with 403 forbidden, a sentence and no rate-limit headers; other keys still work', async () => {
    const disabled = 'key-that-is-disabled-0003';
    app = await sandbox({ apiKeys: [{ key: KEY_A, workspace: 'a' }], disabledKeys: [disabled] });
    const response = await app.inject({ url: '/api/v1/shipments', headers: { authorization: `Bearer ${disabled}` } });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      errors: [{ code: 'forbidden', message: 'This API key is disabled, or API access is not enabled for this account; ask the service for an enabled key.', target: null }],
    });
    expect(response.headers['x-ratelimit-remaining']).toBeUndefined();
    expect((await app.inject({ url: '/api/v1/shipments', headers: A })).statusCode).toBe(200);
  });
});
