import { describe, expect, it } from 'vitest';
import { shipmentEditableSchema } from '../../contract/shipment-editable';
import { checkEdit, editValuesOf, type CustomFieldInput, type EditValues } from './shipment-edit';
import { testShipment } from './test-shipments';

const fields: CustomFieldInput[] = [
  { slug: 'po_number', name: 'PO number', isDate: false },
  { slug: 'eta', name: 'ETA', isDate: true },
];
const shipment = testShipment(1);
const editable = shipmentEditableSchema.parse(shipment);
const members = new Set(['ana.lopez@example.com']);

function check(change: Partial<EditValues> & { cf?: Record<string, string> }, knownMembers: ReadonlySet<string> | null = members) {
  const values = editValuesOf(editable, fields);
  const { cf, ...rest } = change;
  return checkEdit(shipment, editable, { ...values, ...rest, customFields: { ...values.customFields, ...cf } }, { customFields: fields, members: knownMembers });
}

describe('checkEdit', () => {
  it('sends only what changed, lists split on commas, an emptied custom field as null', () => {
    const result = check({ name: ' Bicycles ', tags: 'urgent, fragile', cf: { cf_po_number: '', cf_eta: '2026-03-01' } });
    expect(result.problems).toEqual([]);
    expect(result.patch).toEqual({ name: 'Bicycles', tags: ['urgent', 'fragile'], custom_fields: { po_number: null, eta: '2026-03-01' } });
  });

  it('sends nothing when nothing changed', () => {
    expect(check({ tags: ' urgent ' })).toEqual({ problems: [], patch: null });
  });

  it('refuses a malformed e-mail as the importer does, naming the field and the value', () => {
    expect(check({ viewers: 'ana.lopez@example.com, bob@' }).problems).toEqual([
      { field: 'viewers', level: 'error', message: 'viewers: “bob@” is not an e-mail address.', fix: 'ana.lopez@example.com' },
    ]);
  });

  it('refuses a name over 255 characters', () => {
    expect(check({ name: 'x'.repeat(256) }).problems).toContainEqual({ field: 'name', level: 'error', message: 'name: 256 characters; the limit is 255.' });
    expect(check({ name: 'x'.repeat(255) }).problems).toEqual([]);
  });

  it('refuses an assignee who is no member, when the members are known', () => {
    expect(check({ assignees: 'ana.lopez@example.com, zed@example.com' }).problems).toEqual([
      { field: 'assignees', level: 'error', message: 'assignees: zed@example.com is not a member of this workspace, so it cannot be assigned.' },
    ]);
    expect(check({ assignees: 'zed@example.com' }, null).problems).toEqual([]);
  });

  it('wants a calendar date in a date field, and turns an Excel serial into the date it means', () => {
    expect(check({ cf: { cf_eta: 'next week' } }).problems).toEqual([
      { field: 'cf_eta', level: 'error', message: 'cf_eta: “next week” is not a date; write it as YYYY-MM-DD.' },
    ]);
    expect(check({ cf: { cf_eta: '2026-02-30' } }).problems[0]?.message).toBe('cf_eta: “2026-02-30” is not a date; write it as YYYY-MM-DD.');
    expect(check({ cf: { cf_eta: '46100' } }).problems).toEqual([
      { field: 'cf_eta', level: 'error', message: 'cf_eta: “46100” is not a date; write it as YYYY-MM-DD (2026-03-19?).', fix: '2026-03-19' },
    ]);
  });

  it('keeps the importer\'s warnings, which do not block saving', () => {
    const result = check({ tags: 'a; b' });
    expect(result.problems).toEqual([{ field: 'tags', level: 'warning', message: 'tags: separated by commas only; split “a; b” into 2 tags?', fix: 'a, b' }]);
    expect(result.patch).toEqual({ tags: ['a; b'] });
  });
});
