import { describe, expect, it } from 'vitest';
import {
  columnLetter,
  describeMissingTargets,
  missingRequiredTargets,
  setColumnTarget,
  suggestColumnMapping,
  summarizeIgnoredColumns,
} from './column-mapping';

describe('suggestColumnMapping', () => {
  it('maps exact spec headers and cf_ headers automatically', () => {
    const mapping = suggestColumnMapping(['tracking_number', 'tracking_type', 'carrier', 'cf_po_number']);
    expect(mapping.map((entry) => [entry.target, entry.match])).toEqual([
      ['tracking_number', 'exact'],
      ['tracking_type', 'exact'],
      ['carrier', 'exact'],
      ['cf_po_number', 'exact'],
    ]);
    expect(describeMissingTargets(mapping)).toBeNull();
  });

  it.each([
    ['Tracking Number', 'tracking_number', '“Tracking Number” is tracking_number written differently.'],
    ['TRACKING_TYPE', 'tracking_type', '“TRACKING_TYPE” differs from tracking_type only in case.'],
    ['tracking_number ', 'tracking_number', '“tracking_number ” has spaces around tracking_number.'],
    ['Container No', 'tracking_number', '“Container No” is a usual name for tracking_number.'],
    ['B/L', 'tracking_number', '“B/L” is a usual name for tracking_number.'],
    ['SCAC', 'carrier', '“SCAC” is a usual name for carrier.'],
    ['Carrier SCAC', 'carrier', '“Carrier SCAC” is a usual name for carrier.'],
    ['Ref', 'reference', '“Ref” is a usual name for reference.'],
    ['Type', 'tracking_type', '“Type” is a usual name for tracking_type.'],
    ['Carrier', 'carrier', '“Carrier” differs from carrier only in case.'],
    ['Trackng Numbr', 'tracking_number', '“Trackng Numbr” looks like a misspelling of tracking_number.'],
  ])('suggests %s → %s with its reason', (header, target, reason) => {
    const [entry] = suggestColumnMapping([header]);
    expect(entry).toMatchObject({ target, match: 'suggested', reason });
  });

  it('ignores unknown and empty headers, and says so in a summary', () => {
    const header = ['tracking_number', 'tracking_type', '', ...Array.from({ length: 4990 }, (_, i) => `extra ${i}`), ''];
    const mapping = suggestColumnMapping(header);
    expect(mapping[2]).toMatchObject({ target: null, match: 'unnamed', reason: 'The column has no header.' });
    expect(mapping[3]).toMatchObject({ target: null, match: 'unknown', reason: '“extra 0” is not a column the service knows.' });
    expect(summarizeIgnoredColumns(mapping)).toBe('4,990 unknown columns and 2 columns without a header ignored.');
    expect(summarizeIgnoredColumns(suggestColumnMapping(['tracking_number']))).toBeNull();
  });

  it('gives a target to one column only, the exact one first', () => {
    const mapping = suggestColumnMapping(['Tracking Number', 'tracking_number', 'tracking_number']);
    expect(mapping.map((entry) => entry.match)).toEqual(['duplicate', 'exact', 'duplicate']);
    expect(mapping[0]?.reason).toBe('tracking_number is already mapped from column B.');
  });

  it('names the required targets still missing in a sentence', () => {
    expect(missingRequiredTargets(suggestColumnMapping(['name']))).toEqual(['tracking_number', 'tracking_type']);
    expect(describeMissingTargets(suggestColumnMapping(['name']))).toBe('Map columns to tracking_number and tracking_type to go on.');
    expect(describeMissingTargets(suggestColumnMapping(['Container No']))).toBe('Map a column to tracking_type to go on.');
  });

  it('checks cf_ headers against the custom fields the service lists', () => {
    const mapping = suggestColumnMapping(['cf_po_number', 'cf_colour', 'PO Number', 'cf_Incoterm '], { customFieldSlugs: ['po_number', 'incoterm', 'eta'] });
    expect(mapping[0]).toMatchObject({ target: 'cf_po_number', warning: null });
    expect(mapping[1]).toMatchObject({ target: 'cf_colour', warning: 'The service has no custom field “colour”; this column would be ignored there.' });
    // "PO Number" matches the custom field, but cf_po_number already has an exact column.
    expect(mapping[2]).toMatchObject({ target: null, match: 'duplicate' });
    expect(mapping[3]).toMatchObject({ target: 'cf_incoterm', match: 'suggested' });
    expect(suggestColumnMapping(['ETA'], { customFieldSlugs: ['eta'] })[0]).toMatchObject({
      target: 'cf_eta',
      reason: '“ETA” matches the custom field eta.',
    });
  });
});

describe('setColumnTarget', () => {
  it('moves a target to the chosen column and ignores a column on request', () => {
    let mapping = suggestColumnMapping(['tracking_number', 'Number 2', 'tracking_type']);
    mapping = setColumnTarget(mapping, 1, 'tracking_number');
    expect(mapping[1]).toMatchObject({ target: 'tracking_number', match: 'chosen' });
    expect(mapping[0]).toMatchObject({ target: null, match: 'duplicate', reason: 'tracking_number moved to column B.' });
    mapping = setColumnTarget(mapping, 2, null);
    expect(mapping[2]).toMatchObject({ target: null, match: 'ignored' });
    expect(describeMissingTargets(mapping)).toBe('Map a column to tracking_type to go on.');
    expect(summarizeIgnoredColumns(mapping)).toBe('1 repeated column ignored.');
  });
});

describe('columnLetter', () => {
  it('names columns like spreadsheets do', () => {
    expect([0, 1, 25, 26, 27, 701, 702].map(columnLetter)).toEqual(['A', 'B', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
  });
});
