import { describe, expect, it } from 'vitest';
import { shipmentRequestSchema } from './shipment-request';
import { customFieldSlug, importFileRowSchema, isDateValue, isFileHeader, splitList } from './import-file';

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

  it('takes a SCAC of exactly 4 letters or digits, or AUTO', () => {
    expect(shipmentRequestSchema.safeParse({ ...valid, carrier_scac: '12AB' }).success).toBe(true);
    expect(shipmentRequestSchema.safeParse({ ...valid, carrier_scac: 'HLC' }).error?.issues[0]?.message).toBe(
      'carrier_scac: a SCAC is exactly 4 letters or digits, or AUTO',
    );
    expect(shipmentRequestSchema.safeParse({ ...valid, name: 'x'.repeat(255) }).success).toBe(true);
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
    [{ ...valid, carrier_scac: 'MSC' }, ['carrier_scac']],
    [{ ...valid, name: 'x'.repeat(256) }, ['name']],
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
    const noCarrier = importFileRowSchema.safeParse({ tracking_number: 'MAEU123456789', tracking_type: 'bill_of_lading', carrier: ' ' });
    expect(noCarrier.error?.issues.map((i) => [i.path[0], i.message])).toEqual([['carrier', 'Carrier SCAC is required for bill_of_lading']]);
    const longName = importFileRowSchema.safeParse({ tracking_number: 'X', tracking_type: 'container', name: 'n'.repeat(256) });
    expect(longName.error?.issues.map((i) => [i.path[0], i.message])).toEqual([['name', 'name is longer than 255 characters']]);
  });
});

describe('custom field values', () => {
  it.each([
    ['2026-01-31', true],
    ['2024-02-29', true],
    ['2026-01-31T10:00:00Z', true],
    ['2026-01-31T10:00+02:00', true],
    ['2023-02-29', false],
    ['31/01/2026', false],
    ['45306', false],
    ['2026-1-31', false],
  ])('%s is a date: %s', (value, date) => {
    expect(isDateValue(value)).toBe(date);
  });
});
