import { describe, expect, it } from 'vitest';
import { checkFileRow, checkListRow, type RowContext } from './row-rules';
import { supportedCarriers } from './supported-carriers';

const context: RowContext = {
  members: new Set(['ana.lopez@example.com']),
  customFields: new Map([['po_number', 'text'], ['eta', 'date']]),
  supportedCarriers: supportedCarriers(null),
};

const file = (cells: Record<string, string>) => checkFileRow({ tracking_number: 'CSQU3054383', tracking_type: 'container', ...cells }, context);
const list = (fields: Record<string, unknown>) =>
  checkListRow({ reference: 'R1', tracking_number: 'MAEU123456789', tracking_type: 'bill_of_lading', carrier_scac: 'MAEU', ...fields }, context);
const errorsOf = (verdict: ReturnType<typeof file>) => (verdict.ok ? [] : verdict.errors);

describe('carrier rules of the sandbox', () => {
  it('takes a supported SCAC in any case, digits included when the list has them', () => {
    expect(file({ carrier: 'maeu' })).toMatchObject({ ok: true, row: { changes: { carrierScac: 'MAEU' } } });
    const withDigits = { ...context, supportedCarriers: supportedCarriers(['12AB']) };
    expect(checkFileRow({ tracking_number: 'X1', tracking_type: 'container', carrier: '12ab' }, withDigits).ok).toBe(true);
  });

  it.each(['MA', 'MSC', 'MAEUX', 'MA-E'])('fails %s: a SCAC is exactly 4 letters or digits', (carrier) => {
    expect(errorsOf(file({ carrier }))).toEqual([
      expect.objectContaining({ code: 'invalid_input', target: 'carrier', message: `carrier "${carrier}" is not valid: a SCAC is exactly 4 letters or digits, or AUTO` }),
    ]);
  });

  it('suggests the SCAC of a carrier written by name', () => {
    expect(errorsOf(file({ carrier: 'MSC' }))[0]?.suggested_fix).toBe("Use MSC's SCAC, MSCU, in carrier.");
  });

  it('fails a well-formed SCAC it does not support, with the near one as suggested fix', () => {
    expect(errorsOf(file({ carrier: 'MAUE' }))).toEqual([
      { code: 'invalid_input', target: 'carrier', message: 'carrier: MAUE is not a carrier this service supports', suggested_fix: 'Did you mean MAEU?' },
    ]);
    expect(errorsOf(file({ carrier: 'QQQQ' }))[0]).not.toHaveProperty('suggested_fix');
    expect(list({ carrier_scac: 'QQQQ' })).toMatchObject({ ok: false, errors: [{ target: 'carrier_scac' }] });
  });

  it('supports more carriers than the console lists', () => {
    expect(file({ carrier: 'CULU' }).ok).toBe(true);
  });

  it('fails a B/L or booking without carrier, suggesting the one its number starts with', () => {
    expect(errorsOf(checkFileRow({ tracking_number: 'MAEU123456789', tracking_type: 'bill_of_lading' }, context))).toEqual([
      {
        code: 'invalid_input', target: 'carrier', message: 'Carrier SCAC is required for bill_of_lading',
        suggested_fix: 'Set carrier to MAEU: the number starts with that SCAC (Maersk).',
      },
    ]);
    expect(errorsOf(checkFileRow({ tracking_number: '123456789', tracking_type: 'booking' }, context))).toEqual([
      { code: 'invalid_input', target: 'carrier', message: 'Carrier SCAC is required for booking' },
    ]);
  });

  it('still detects the carrier of an AUTO container', () => {
    expect(file({ carrier: 'AUTO', tracking_number: 'MSCU1234566' })).toMatchObject({ ok: true, row: { changes: { carrierScac: 'MSCU' } } });
  });
});

describe('names and custom fields', () => {
  it('fails a name over 255 characters, in a file and in a list', () => {
    expect(file({ name: 'x'.repeat(255) }).ok).toBe(true);
    expect(errorsOf(file({ name: 'x'.repeat(256) }))).toEqual([{ code: 'invalid_input', target: 'name', message: 'name is longer than 255 characters' }]);
    expect(list({ name: 'x'.repeat(256) })).toMatchObject({ ok: false, errors: [{ target: 'name', message: 'name is longer than 255 characters' }] });
  });

  it('fails a row whose cell the reader shortened (over 32,767 characters), naming the column; a cell at the cap passes', () => {
    const shortened = `${'r'.repeat(32_767)}…`; // as shortenCell keeps a 2 MiB cell
    expect(file({ reference: 'r'.repeat(32_767) }).ok).toBe(true);
    expect(errorsOf(file({ reference: shortened, cf_po_number: shortened }))).toEqual([
      { code: 'invalid_input', target: 'reference', message: 'reference has more than 32,767 characters, the most a cell may hold; it is shown shortened, ending in “…”' },
      { code: 'invalid_input', target: 'cf_po_number', message: 'cf_po_number has more than 32,767 characters, the most a cell may hold; it is shown shortened, ending in “…”' },
    ]);
    // A column the workspace does not know is only a warning when short, still an error when over-long.
    expect(file({ cf_colour: shortened }).ok).toBe(false);
  });

  it('ignores a custom field value of the wrong type with a warning, and keeps the right ones', () => {
    const verdict = file({ cf_eta: '31/01/2026', cf_po_number: 'PO-1' });
    expect(verdict).toMatchObject({ ok: true, row: { changes: { customFields: { po_number: 'PO-1' } } } });
    expect(verdict.warnings).toEqual([
      {
        code: 'invalid_input', target: 'cf_eta', message: 'cf_eta: expected a date (YYYY-MM-DD), not "31/01/2026"; the value was ignored',
        suggested_fix: 'Write the date as YYYY-MM-DD, e.g. 2026-01-31.',
      },
    ]);
    expect(file({ cf_eta: '2026-01-31' })).toMatchObject({ ok: true, warnings: [], row: { changes: { customFields: { eta: '2026-01-31' } } } });
  });
});
