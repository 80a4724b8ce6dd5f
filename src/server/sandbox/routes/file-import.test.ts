import * as XLSX from '@e965/xlsx';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Batch } from '../../../contract/batch';
import { shipmentListSchema } from '../../../contract/shipment';
import { AUTH, multipartBody, sandbox, uploadFile, waitForBatch, warmParsePool } from '../../test-support';

let app: FastifyInstance;
beforeAll(() => warmParsePool(), 60_000);
afterEach(async () => app.close());

function workbook(rows: string[][], bookType: 'xlsx' | 'biff8'): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Shipments');
  return new Uint8Array(XLSX.write(book, { type: 'buffer', bookType }) as Buffer);
}

async function importFile(content: string | Uint8Array, fileName = 'shipments.csv'): Promise<Batch> {
  const response = await uploadFile(app, content, fileName);
  expect(response.statusCode).toBe(202);
  return waitForBatch(app, response.json<Batch>().id);
}

describe('POST /api/v1/shipments/imports/file', () => {
  test('answers 202 with the batch processing, one item per data row, values as submitted', async () => {
    app = await sandbox({ rowDelayMs: 20 });
    const csv = 'tracking_number,tracking_type,reference,carrier,name\nMSCU1234566,container,F-1,mscu,Box one\nMAEU123456789,bill_of_lading,,,\n';
    const response = await uploadFile(app, csv);
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({
      status: 'processing',
      total_requests: 2,
      completed_requests: 0,
      results: [
        { row_number: 1, reference: 'F-1', tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'MSCU', name: 'Box one', creation_status: 'processing' },
        { row_number: 2, reference: null, tracking_number: 'MAEU123456789', carrier_scac: null, creation_status: 'processing' },
      ],
    });
    const batch = await waitForBatch(app, response.json<Batch>().id);
    expect(batch).toMatchObject({ status: 'completed', completed_requests: 2 });
    // A B/L without carrier fails, as on the real service (CARRIER_SCAC_REQUIRED), with the fix its prefix suggests.
    expect(batch.results[1]).toMatchObject({
      creation_status: 'failed',
      errors: [{ message: 'Carrier SCAC is required for bill_of_lading', target: 'carrier', suggested_fix: 'Set carrier to MAEU: the number starts with that SCAC (Maersk).' }],
    });
  });

  test.each([
    ['XLSX', 'shipments.xlsx', 'xlsx'],
    ['XLS', 'shipments.xls', 'biff8'],
  ] as const)('reads %s workbooks', async (_label, fileName, bookType) => {
    app = await sandbox();
    const bytes = workbook(
      [
        ['tracking_number', 'tracking_type', 'reference', 'cf_po_number'],
        ['MSCU1234566', 'container', 'WB-1', 'PO-77'],
      ],
      bookType,
    );
    const batch = await importFile(bytes, fileName);
    expect(batch.results[0]).toMatchObject({ reference: 'WB-1', creation_status: 'created' });
    const list = shipmentListSchema.parse((await app.inject({ url: `/api/v1/shipments?batch_id=${batch.id}`, headers: AUTH })).json());
    expect(list.data[0]?.custom_fields).toEqual({ po_number: 'PO-77' });
  });

  test('warns about non-member assignees, malformed e-mails and unknown custom fields, and still creates the shipment', async () => {
    app = await sandbox();
    const csv = [
      'tracking_number,tracking_type,reference,assignees,viewers,tags,cf_incoterm,cf_colour',
      'MSCU1234566,container,W-1,"ana.lopez@example.com, stranger@example.org","not-an-email, guest@example.org","urgent, reefer",FOB,red',
    ].join('\n');
    const batch = await importFile(csv);
    const item = batch.results[0];
    expect(item).toMatchObject({ creation_status: 'created', tracking_status: 'succeeded', errors: [] });
    expect(item?.warnings).toEqual([
      { code: 'invalid_input', message: expect.stringContaining('"not-an-email"') as string, target: 'viewers' },
      { code: 'invalid_input', message: expect.stringContaining('stranger@example.org is not a member') as string, target: 'assignees' },
      { code: 'invalid_input', message: expect.stringContaining('"colour"') as string, target: 'cf_colour' },
    ]);
    const list = (await app.inject({ url: `/api/v1/shipments?batch_id=${batch.id}`, headers: AUTH })).json<{ data: Record<string, unknown>[] }>();
    expect(list.data[0]).toMatchObject({
      assignees: ['ana.lopez@example.com'],
      viewers: ['guest@example.org'],
      tags: ['urgent', 'reefer'],
      custom_fields: { incoterm: 'FOB' },
    });
  });

  test('fails the rows DESIGN §3 names as errors, each naming its column', async () => {
    app = await sandbox();
    const csv = [
      'tracking_number,tracking_type,carrier',
      ',container,MSCU',
      'MSCU1234566,vessel,MSCU',
      'MAEU123456789,bill_of_lading,AUTO',
      'MSCU1234566,container,M5CU',
      'ZZZZ00001234,booking,',
      'MSCU1234566,Container,',
    ].join('\n');
    const batch = await importFile(csv);
    expect(batch.results.map((item) => [item.creation_status, item.errors.map((error) => error.target)])).toEqual([
      ['failed', ['tracking_number']],
      ['failed', ['tracking_type']],
      ['failed', ['carrier']],
      ['failed', ['carrier']],
      ['failed', ['carrier']],
      ['failed', ['tracking_type']],
    ]);
    expect(batch.results[4]?.errors[0]?.message).toMatch(/SCAC/);
  });

  test('empty cells leave the stored fields unchanged when a reference is updated', async () => {
    app = await sandbox();
    await importFile('tracking_number,tracking_type,reference,name,tags,cf_po_number\nMSCU1234566,container,K-1,Kept,"a, b",PO-1\n');
    const batch = await importFile('tracking_number,tracking_type,reference,name,tags,cf_po_number,cf_eta\nMSCU1234566,container,K-1,,,,2026-01-31\n');
    expect(batch.results[0]).toMatchObject({ creation_status: 'updated', name: 'Kept' });
    const list = (await app.inject({ url: '/api/v1/shipments', headers: AUTH })).json<{ data: Record<string, unknown>[] }>();
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ name: 'Kept', tags: ['a', 'b'], custom_fields: { po_number: 'PO-1', eta: '2026-01-31' } });
  });

  test('rows without a reference always create a shipment', async () => {
    app = await sandbox();
    const batch = await importFile('tracking_number,tracking_type\nMSCU1234566,container\nMSCU1234566,container\n');
    expect(batch.results.map((item) => item.creation_status)).toEqual(['created', 'created']);
  });

  describe('refused uploads', () => {
    test('400 bad_request without multipart', async () => {
      app = await sandbox();
      const response = await app.inject({ method: 'POST', url: '/api/v1/shipments/imports/file', headers: { ...AUTH, 'content-type': 'application/json' }, payload: '[]' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ errors: [{ code: 'bad_request', message: expect.stringContaining('"file"') as string }] });
    });

    test('400 bad_request when the part is not named file', async () => {
      app = await sandbox();
      const body = multipartBody('tracking_number,tracking_type\n', 'a.csv', 'upload');
      const response = await app.inject({ method: 'POST', url: '/api/v1/shipments/imports/file', payload: body.payload, headers: { ...AUTH, ...body.headers } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ errors: [{ code: 'bad_request', message: expect.stringContaining('"upload"') as string }] });
    });

    test('413 too_large over the byte cap', async () => {
      app = await sandbox({ maxFileBytes: 64 });
      const response = await uploadFile(app, `tracking_number,tracking_type\n${'MSCU1234566,container\n'.repeat(10)}`);
      expect(response.statusCode).toBe(413);
      expect(response.json()).toMatchObject({ errors: [{ code: 'too_large', target: 'file' }] });
    });

    test('413 too_large over the row cap', async () => {
      app = await sandbox({ maxBatchRows: 2 });
      const response = await uploadFile(app, `tracking_number,tracking_type\n${'MSCU1234566,container\n'.repeat(3)}`);
      expect(response.statusCode).toBe(413);
      expect(response.json()).toMatchObject({ errors: [{ code: 'too_large', message: expect.stringMatching(/limit is 2|at most 2/) as string }] });
    });

    test('415 unsupported_file for a picture named .csv', async () => {
      app = await sandbox();
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
      const response = await uploadFile(app, png, 'shipments.csv');
      expect(response.statusCode).toBe(415);
      expect(response.json()).toMatchObject({ errors: [{ code: 'unsupported_file', message: expect.any(String) as string }] });
    });

    test('422 invalid_file when a required header is missing, naming the header', async () => {
      app = await sandbox();
      const response = await uploadFile(app, 'Tracking Number,tracking_type\nMSCU1234566,container\n');
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        errors: [{ code: 'invalid_file', message: expect.stringContaining('tracking_number') as string, target: 'tracking_number' }],
      });
    });

    test('422 invalid_file for a header named twice, a header without rows, and a broken workbook', async () => {
      app = await sandbox();
      const twice = await uploadFile(app, 'tracking_number,tracking_type,name,name\nMSCU1234566,container,a,b\n');
      expect(twice.statusCode).toBe(422);
      expect(twice.json()).toMatchObject({ errors: [{ code: 'invalid_file', target: 'name' }] });

      const headerOnly = await uploadFile(app, 'tracking_number,tracking_type\n');
      expect(headerOnly.statusCode).toBe(422);
      expect(headerOnly.json()).toMatchObject({ errors: [{ code: 'invalid_file', message: expect.stringContaining('no shipment rows') as string }] });

      const broken = workbook([['tracking_number', 'tracking_type']], 'xlsx').slice(0, 200);
      const response = await uploadFile(app, broken, 'broken.xlsx');
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ errors: [{ code: 'invalid_file' }] });
    });
  });
});
