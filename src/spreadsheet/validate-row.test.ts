import { describe, expect, it } from 'vitest';
import type { ColumnTarget } from './column-mapping';
import type { RowIssue } from './row-issue';
import { createValidationContext, reviewColumns, validateRow } from './validate-row';

type Cells = Partial<Record<ColumnTarget, string>>;

function check(cells: Cells, customFields: ColumnTarget[] = [], maxCellLength = 32767) {
  const columns = reviewColumns(customFields);
  const context = createValidationContext(columns, maxCellLength);
  const raw = columns.map((column) => cells[column] ?? '');
  const out: string[] = [];
  const issues = validateRow(0, raw, out, context) ?? [];
  const values = Object.fromEntries(columns.map((column, i) => [column, out[i]]));
  const of = (level: RowIssue['level']) => issues.filter((issue) => issue.level === level).map(({ column, code, message, fix }) => ({ column, code, message, fix }));
  return { values, issues, errors: of('error'), warnings: of('warning'), fixes: of('auto_fix') };
}

describe('validateRow', () => {
  it('has nothing to say about a clean row', () => {
    const { issues } = check({ tracking_number: 'CSQU3054383', tracking_type: 'container', carrier: 'MAEU', reference: 'R1', viewers: 'a@example.com, b@example.com', tags: 'x, y' });
    expect(issues).toEqual([]);
    expect(check({ tracking_number: 'MAEU123456789', tracking_type: 'bill_of_lading', carrier: 'MAEU' }).issues).toEqual([]);
  });

  it('normalizes synonyms, case, spaces and container separators, listing each as an auto-fix', () => {
    const { values, fixes, errors } = check({ tracking_number: ' csqu 305438-3 ', tracking_type: 'Container', carrier: 'auto', name: ' Parts ' });
    expect(errors).toEqual([]);
    expect(values).toMatchObject({ tracking_number: 'CSQU3054383', tracking_type: 'container', carrier: 'AUTO', name: 'Parts' });
    expect(fixes.map((fix) => fix.message)).toEqual([
      'tracking_number: changed “ csqu 305438-3 ” to “CSQU3054383” (spaces around it removed, separators removed, upper-cased).',
      'tracking_type: changed “Container” to “container” (lower-cased).',
      'carrier: changed “auto” to “AUTO” (upper-cased).',
      'name: changed “ Parts ” to “Parts” (spaces around it removed).',
    ]);
  });

  it.each([
    ['BL', 'bill_of_lading'],
    ['B/L', 'bill_of_lading'],
    ['BOL', 'bill_of_lading'],
    ['bill of lading', 'bill_of_lading'],
    ['BKG', 'booking'],
    ['Booking', 'booking'],
  ])('reads tracking_type %s as %s', (type, canonical) => {
    const { values, fixes } = check({ tracking_number: 'MAEU123456789', tracking_type: type, carrier: 'MAEU' });
    expect(values.tracking_type).toBe(canonical);
    expect(fixes).toHaveLength(1);
  });

  it('offers "did you mean" for a near miss that is not a synonym', () => {
    expect(check({ tracking_number: 'CSQU3054383', tracking_type: 'containr' }).errors).toEqual([
      { column: 'tracking_type', code: 'invalid_tracking_type', message: 'tracking_type: “containr” is not container, bill_of_lading or booking; did you mean container?', fix: 'container' },
    ]);
  });

  it('suggests the tracking type from the shape of the number', () => {
    expect(check({ tracking_number: 'CSQU3054383' }).errors).toEqual([
      { column: 'tracking_type', code: 'required', message: 'tracking_type: empty; the number looks like a container number.', fix: 'container' },
    ]);
    expect(check({ tracking_number: 'CSQU3054383', tracking_type: 'booking', carrier: 'MAEU' }).warnings).toEqual([
      { column: 'tracking_type', code: 'tracking_type_mismatch', message: 'tracking_type: “CSQU3054383” is a container number; should the type be container?', fix: 'container' },
    ]);
  });

  it('refuses an empty tracking number', () => {
    expect(check({ tracking_type: 'container' }).errors).toEqual([
      { column: 'tracking_number', code: 'required', message: 'tracking_number: empty.', fix: undefined },
    ]);
  });

  it('checks container numbers against ISO 6346 and gives the right check digit', () => {
    expect(check({ tracking_number: 'CSQU3054384', tracking_type: 'container' }).errors).toEqual([
      { column: 'tracking_number', code: 'check_digit', message: 'tracking_number: check digit should be 3.', fix: 'CSQU3054383' },
    ]);
    expect(check({ tracking_number: 'CSQX305438', tracking_type: 'container' }).errors[0]).toMatchObject({
      code: 'invalid_container_number',
      message: 'tracking_number: “CSQX305438” is not a container number (4 letters ending in U, J or Z, then 7 digits).',
    });
  });

  it('turns carrier names and abbreviations into SCAC suggestions, as errors the user accepts', () => {
    expect(check({ tracking_number: 'CSQU3054383', tracking_type: 'container', carrier: 'Maersk' }).errors).toEqual([
      { column: 'carrier', code: 'invalid_carrier', message: 'carrier: “Maersk” is a name, not a SCAC; Maersk → MAEU.', fix: 'MAEU' },
    ]);
    expect(check({ tracking_number: 'CSQU3054383', tracking_type: 'container', carrier: 'Hapag-Lloyd' }).errors[0]?.fix).toBe('HLCU');
    const msc = check({ tracking_number: 'CSQU3054383', tracking_type: 'container', carrier: 'MSC' });
    expect(msc.errors).toEqual([{ column: 'carrier', code: 'invalid_carrier', message: 'carrier: “MSC” is a name, not a SCAC; MSC → MSCU.', fix: 'MSCU' }]);
    expect(msc.values.carrier).toBe('MSC');
    // A four-character name is still a name: OOCL's SCAC is OOLU.
    expect(check({ tracking_number: 'CSQU3054383', tracking_type: 'container', carrier: 'OOCL' }).errors[0]?.fix).toBe('OOLU');
    expect(check({ tracking_number: 'CSQU3054383', tracking_type: 'container', carrier: 'Acme Lines Intl' }).errors[0]).toMatchObject({
      code: 'invalid_carrier',
      message: 'carrier: “Acme Lines Intl” is not a SCAC code: a SCAC is exactly 4 letters or digits, or AUTO.',
    });
  });

  it.each(['AB', 'XYZ', 'MAEUX', 'MA-E'])('refuses %s: a SCAC is exactly 4 letters or digits, and is never rewritten silently', (carrier) => {
    const { errors, values, fixes } = check({ tracking_number: 'CSQU3054383', tracking_type: 'container', carrier });
    expect(errors).toEqual([
      { column: 'carrier', code: 'invalid_carrier', message: `carrier: “${carrier}” is not a SCAC code: a SCAC is exactly 4 letters or digits, or AUTO.`, fix: undefined },
    ]);
    expect(values.carrier).toBe(carrier);
    expect(fixes).toEqual([]);
  });

  it('accepts SCACs with digits', () => {
    const { errors, warnings, values } = check({ tracking_number: 'CSQU3054383', tracking_type: 'container', carrier: '12ab' });
    expect(errors).toEqual([]);
    expect(values.carrier).toBe('12AB');
    expect(warnings.map((warning) => warning.code)).toEqual(['unknown_carrier']);
  });

  it('warns about SCACs not on its list (the service decides), with a near one when there is', () => {
    expect(check({ tracking_number: 'CSQU3054383', tracking_type: 'container', carrier: 'MAUE' }).warnings).toEqual([
      {
        column: 'carrier', code: 'unknown_carrier',
        message: "carrier: MAUE is not on this console's list of ocean carriers; the service refuses a carrier it does not support. Did you mean MAEU?",
        fix: 'MAEU',
      },
    ]);
    expect(check({ tracking_number: 'CSQU3054383', tracking_type: 'container', carrier: 'QQQQ' }).warnings[0]?.fix).toBeUndefined();
  });

  it('refuses AUTO for anything but containers', () => {
    expect(check({ tracking_number: 'MAEU123456789', tracking_type: 'bill_of_lading', carrier: 'AUTO' }).errors).toEqual([
      { column: 'carrier', code: 'auto_carrier_not_container', message: 'carrier: AUTO is allowed only when tracking_type is container.', fix: 'MAEU' },
    ]);
  });

  it('fills the carrier of a B/L in from its prefix as a visible auto-fix, or fails the row when it cannot', () => {
    const inferred = check({ tracking_number: 'HLCUHAM240512345', tracking_type: 'bill_of_lading' });
    expect(inferred.values.carrier).toBe('HLCU');
    expect(inferred.errors).toEqual([]);
    expect(inferred.warnings).toEqual([]);
    expect(inferred.fixes).toEqual([
      {
        column: 'carrier', code: 'carrier_inferred', fix: undefined,
        message: 'carrier: empty; set to HLCU (Hapag-Lloyd), the SCAC the number starts with, because the service requires a carrier for a bill of lading.',
      },
    ]);
    expect(check({ tracking_number: '123456789', tracking_type: 'booking' }).errors).toEqual([
      { column: 'carrier', code: 'carrier_missing', message: 'carrier: required for a booking, and the number does not start with a known SCAC.', fix: undefined },
    ]);
  });

  it('warns when the B/L prefix disagrees with the carrier', () => {
    expect(check({ tracking_number: 'HLCUHAM240512345', tracking_type: 'bill_of_lading', carrier: 'MAEU' }).warnings).toEqual([
      { column: 'carrier', code: 'carrier_mismatch', message: 'carrier: the bill of lading starts with HLCU (Hapag-Lloyd), not MAEU.', fix: 'HLCU' },
    ]);
  });

  it('refuses malformed e-mails in viewers and assignees, with a fix', () => {
    const base = { tracking_number: 'CSQU3054383', tracking_type: 'container' };
    expect(check({ ...base, viewers: 'a@example.com, bob@' }).errors).toEqual([
      { column: 'viewers', code: 'invalid_email', message: 'viewers: “bob@” is not an e-mail address.', fix: 'a@example.com' },
    ]);
    expect(check({ ...base, assignees: 'a@example.com; b@example.com' }).errors).toEqual([
      { column: 'assignees', code: 'invalid_email', message: 'assignees: separate e-mail addresses with commas.', fix: 'a@example.com, b@example.com' },
    ]);
  });

  it('offers to split tags on ; and |', () => {
    expect(check({ tracking_number: 'CSQU3054383', tracking_type: 'container', tags: 'urgent; eu|q3' }).warnings).toEqual([
      { column: 'tags', code: 'list_separator', message: 'tags: separated by commas only; split “urgent; eu|q3” into 3 tags?', fix: 'urgent, eu, q3' },
    ]);
  });

  it('warns about text that a spreadsheet would run as a formula, not about signed numbers', () => {
    const base = { tracking_number: 'CSQU3054383', tracking_type: 'container' };
    expect(check({ ...base, name: '=HYPERLINK("x")' }).warnings).toEqual([
      { column: 'name', code: 'formula_like', message: 'name: starts with “=”; it is kept as text, and escaped in downloads.', fix: undefined },
    ]);
    expect(check({ ...base, reference: '@home' }).warnings[0]?.code).toBe('formula_like');
    expect(check({ tracking_number: '=1+1', tracking_type: 'booking', carrier: 'MAEU' }).warnings[0]?.code).toBe('formula_like');
    expect(check({ ...base, cf_weight: '-12.5' }, ['cf_weight']).warnings).toEqual([]);
  });

  it('suggests dates for Excel serials in date-like custom fields', () => {
    const base = { tracking_number: 'CSQU3054383', tracking_type: 'container' };
    expect(check({ ...base, cf_due_date: '45306' }, ['cf_due_date']).warnings).toEqual([
      { column: 'cf_due_date', code: 'date_serial', message: 'cf_due_date: 45306 looks like an Excel date (2024-01-15).', fix: '2024-01-15' },
    ]);
    expect(check({ ...base, cf_po_number: '45306' }, ['cf_po_number']).warnings).toEqual([]);
  });

  it('refuses a cf_eta value that is not a date, which the service would ignore', () => {
    const base = { tracking_number: 'CSQU3054383', tracking_type: 'container' };
    expect(check({ ...base, cf_eta: '45306' }, ['cf_eta']).errors).toEqual([
      {
        column: 'cf_eta', code: 'invalid_date', fix: '2024-01-15',
        message: 'cf_eta: 45306 is not a date, but looks like an Excel date (2024-01-15); the service ignores a value that is not a date.',
      },
    ]);
    expect(check({ ...base, cf_eta: 'next week' }, ['cf_eta']).errors).toEqual([
      { column: 'cf_eta', code: 'invalid_date', fix: undefined, message: 'cf_eta: “next week” is not a date (YYYY-MM-DD); the service ignores a value that is not a date.' },
    ]);
    expect(check({ ...base, cf_eta: '2024-02-30' }, ['cf_eta']).errors[0]?.code).toBe('invalid_date');
    expect(check({ ...base, cf_eta: '2024-02-29' }, ['cf_eta']).issues).toEqual([]);
    expect(check({ ...base, cf_eta: '' }, ['cf_eta']).issues).toEqual([]);
  });

  it('refuses a name over 255 characters, as the service does', () => {
    const base = { tracking_number: 'CSQU3054383', tracking_type: 'container' };
    expect(check({ ...base, name: 'x'.repeat(255) }).errors).toEqual([]);
    expect(check({ ...base, name: 'x'.repeat(256) }).errors).toEqual([
      { column: 'name', code: 'too_long', message: 'name: 256 characters; the limit is 255.', fix: undefined },
    ]);
  });

  it('refuses a cell over the length cap', () => {
    expect(check({ tracking_number: 'CSQU3054383', tracking_type: 'container', reference: 'x'.repeat(101) }, [], 100).errors).toEqual([
      { column: 'reference', code: 'too_long', message: 'reference: 101 characters; the limit is 100.', fix: undefined },
    ]);
  });
});
