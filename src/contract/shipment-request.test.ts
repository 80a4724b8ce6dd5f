import { describe, expect, it } from 'vitest';
import { shipmentRequestSchema } from './shipment-request';
import { customFieldSlug, importFileRowSchema, isFileHeader, splitList } from './import-file';

describe('shipment request (JSON list entry)', () => {
  const valid = { reference: 'PO-1', tracking_number: 'MAEU123456789', tracking_type: 'bill_of_lading', carrier_scac: 'MAEU' };

  it('accepts the documented fields', () => {
    expect(shipmentRequestSchema.parse({ ...valid, name: 'Bikes' })).toEqual({ ...valid, name: 'Bikes' });
  });

  it('allows AUTO only for containers', () => {
    expect(shipmentRequestSchema.safeParse({ ...valid, tracking_type: 'container', carrier_scac: 'AUTO' }).success).toBe(true);
    const result = shipmentRequestSchema.safeParse({ ...valid, carrier_scac: 'AUTO' });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['carrier_scac'], message: 'AUTO carrier detection is allowed only when tracking_type is container' }),
    ]);
  });

  it('says in words what is wrong with each field', () => {
    const result = shipmentRequestSchema.safeParse({ tracking_number: 7, tracking_type: 'ship' });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'reference is required (text)',
      'tracking_number is required (text)',
      'tracking_type must be container, bill_of_lading or booking',
      'carrier_scac is required (text)',
    ]);
  });

  it.each([
    [{ ...valid, reference: '' }, ['reference']],
    [{ ...valid, tracking_type: 'truck' }, ['tracking_type']],
    [{ ...valid, carrier_scac: 'MAERSK LINE' }, ['carrier_scac']],
    [{ tracking_number: 'X' }, ['reference', 'tracking_type', 'carrier_scac']],
  ])('names the offending field of %j', (input, fields) => {
    const result = shipmentRequestSchema.safeParse(input);
    expect(result.error?.issues.map((issue) => issue.path[0])).toEqual(fields);
  });
});

describe('import file columns', () => {
  it('recognises the spec headers exactly, case-sensitively', () => {
    expect(isFileHeader('tracking_number')).toBe(true);
    expect(isFileHeader('Tracking_Number')).toBe(false);
  });

  it('reads the slug of cf_ headers only', () => {
    expect(customFieldSlug('cf_po_number')).toBe('po_number');
    expect(customFieldSlug('cf_')).toBeNull();
    expect(customFieldSlug('po_number')).toBeNull();
  });

  it('splits comma-separated lists, dropping blanks', () => {
    expect(splitList(' a@x.com, b@x.com ,,')).toEqual(['a@x.com', 'b@x.com']);
    expect(splitList(undefined)).toEqual([]);
  });

  it('parses a file row with lists and custom fields', () => {
    const row = importFileRowSchema.parse({
      tracking_number: ' MSKU1234565 ',
      tracking_type: 'container',
      carrier: 'maeu',
      tags: 'urgent, reefer',
      viewers: '',
      cf_po_number: 'PO-7',
    });
    expect(row).toMatchObject({ tracking_number: 'MSKU1234565', carrier: 'MAEU', tags: ['urgent', 'reefer'], viewers: [], cf_po_number: 'PO-7' });
  });

  it('fails a row on the service rules, naming the column', () => {
    const result = importFileRowSchema.safeParse({ tracking_number: '', tracking_type: 'ship', carrier: 'AUTO' });
    expect(result.error?.issues.map((i) => [i.path[0], i.message])).toEqual([
      ['tracking_number', 'tracking_number is empty'],
      ['tracking_type', 'tracking_type must be container, bill_of_lading or booking'],
    ]);
    const auto = importFileRowSchema.safeParse({ tracking_number: 'X', tracking_type: 'booking', carrier: 'auto' });
    expect(auto.error?.issues[0]?.path).toEqual(['carrier']);
  });
});
