import { describe, expect, it } from 'vitest';
import { batchSchema, isFinalBatchStatus, resultItemSchema } from './batch';

// The shapes of api-spec §2.3/§2.4 as the service documents them.
const specItem = {
  id: '7f1d2c3b-1111-4a5b-9c8d-000000000001',
  reference: 'PO-1001',
  tracking_type: 'container',
  tracking_number: 'MSKU1234565',
  carrier_scac: 'MAEU',
  creation_status: 'created',
  tracking_status: 'processing',
  shipment_id: '7f1d2c3b-2222-4a5b-9c8d-000000000002',
  name: 'Shoes for Rotterdam',
  errors: [],
  warnings: [{ code: 'invalid_input', message: 'nobody@example.com is not a member of this workspace', target: 'assignees' }],
};
const specBatch = {
  id: '7f1d2c3b-0000-4a5b-9c8d-000000000000',
  status: 'processing',
  created_at: '2026-11-21T10:15:00.123Z',
  results: [specItem],
  total_requests: 1,
  completed_requests: 0,
};

describe('batch schema', () => {
  it('parses the documented batch and keeps the warning', () => {
    const batch = batchSchema.parse(specBatch);
    expect(batch.status).toBe('processing');
    expect(batch.results[0]?.warnings[0]).toEqual(specItem.warnings[0]);
  });

  it('keeps fields the spec does not list and accepts enum values it has not observed', () => {
    const batch = batchSchema.parse({
      ...specBatch,
      status: 'cancelled',
      priority: 'high',
      results: [{ ...specItem, creation_status: 'skipped', tracking_status: 'queued', row_number: 3, carrier_name: 'Maersk' }],
    });
    expect(batch.status).toBe('cancelled');
    expect(batch).toHaveProperty('priority', 'high');
    expect(batch.results[0]).toMatchObject({ creation_status: 'skipped', row_number: 3, carrier_name: 'Maersk' });
  });

  it('defaults missing warnings and errors to empty lists, and accepts a failed row without a shipment', () => {
    const { errors: _e, warnings: _w, ...bare } = specItem;
    const item = resultItemSchema.parse({ ...bare, shipment_id: null, creation_status: 'failed' });
    expect(item.errors).toEqual([]);
    expect(item.warnings).toEqual([]);
    expect(item.shipment_id).toBeNull();
  });

  it.each([
    ['a missing id', { ...specBatch, id: undefined }],
    ['negative counters', { ...specBatch, completed_requests: -1 }],
    ['fractional counters', { ...specBatch, total_requests: 1.5 }],
    ['results that are not a list', { ...specBatch, results: 'none' }],
    ['a result item without tracking_number', { ...specBatch, results: [{ ...specItem, tracking_number: undefined }] }],
    ['a warning without a message', { ...specBatch, results: [{ ...specItem, warnings: [{ code: 'x' }] }] }],
    ['null', null],
    ['an array', [specBatch]],
  ])('rejects %s', (_label, input) => {
    expect(batchSchema.safeParse(input).success).toBe(false);
  });

  it('treats completed and failed as final, anything else as still running', () => {
    expect(isFinalBatchStatus('completed')).toBe(true);
    expect(isFinalBatchStatus('failed')).toBe(true);
    expect(isFinalBatchStatus('processing')).toBe(false);
    expect(isFinalBatchStatus('paused')).toBe(false);
  });

  it('is not fooled by __proto__ keys in a hostile body', () => {
    const hostile = JSON.parse(`{"__proto__":{"polluted":true},${JSON.stringify(specBatch).slice(1)}`) as unknown;
    const batch = batchSchema.parse(hostile);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(batch.id).toBe(specBatch.id);
  });
});
