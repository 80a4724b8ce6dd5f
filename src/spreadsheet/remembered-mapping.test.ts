import { describe, expect, it } from 'vitest';
import type { RememberedMapping } from '../contract/remembered-mapping';
import { setColumnTarget, suggestColumnMapping } from './column-mapping';
import {
  applyRememberedMapping,
  describeMissingColumns,
  findRememberedMapping,
  headerFingerprint,
  mappingToRemember,
} from './remembered-mapping';

const NOON_12_NOV = Date.UTC(2026, 10, 12, 12);
const HEADER = ['Equipment', 'Basis', 'Order', 'Operator', 'Cargo'];

function memory(overrides: Partial<RememberedMapping> = {}): RememberedMapping {
  return {
    fingerprint: headerFingerprint(HEADER),
    fileName: 'weekly-46.csv',
    sheet: null,
    headerRow: 0,
    columns: [
      { header: 'Equipment', target: 'tracking_number' },
      { header: 'Basis', target: 'tracking_type' },
      { header: 'Order', target: 'reference' },
      { header: 'Operator', target: 'carrier' },
      { header: 'Cargo', target: null },
    ],
    savedAt: NOON_12_NOV,
    savedBy: 'Ana',
    ...overrides,
  };
}

describe('headerFingerprint', () => {
  it('ignores order, case, spacing and repeats', () => {
    const fingerprint = headerFingerprint(HEADER);
    expect(fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(headerFingerprint(['CARGO', ' operator ', 'order', 'Basis', 'Equip ment'])).toBe(fingerprint);
    expect(headerFingerprint([...HEADER, 'Cargo', ''])).toBe(fingerprint);
  });

  it('differs for another set of headers', () => {
    expect(headerFingerprint(['Equipment', 'Basis', 'Order', 'Operator'])).not.toBe(headerFingerprint(HEADER));
    expect(headerFingerprint(['Equipment', 'Basis', 'Order', 'Operator', 'Cargos'])).not.toBe(headerFingerprint(HEADER));
    expect(headerFingerprint(['ab', 'c'])).not.toBe(headerFingerprint(['a', 'bc']));
  });
});

describe('findRememberedMapping', () => {
  it('finds the header row whose set of headers is remembered, in any order and case', () => {
    const rows = [['Weekly export'], ['CARGO', 'operator', 'ORDER', 'basis', 'equipment'], ['Toys', 'MAEU', 'PO-1', 'container', 'MSKU1234565']];
    expect(findRememberedMapping(rows, [memory()], 0)).toMatchObject({ headerRow: 1, sameHeaders: true, memory: { fileName: 'weekly-46.csv' } });
  });

  it('takes the newest of two records of the same headers', () => {
    const newer = memory({ fileName: 'weekly-47.csv', savedAt: NOON_12_NOV + 86_400_000 });
    expect(findRememberedMapping([HEADER], [memory(), newer], 0)?.memory.fileName).toBe('weekly-47.csv');
  });

  it('applies a memory sharing three quarters of the headers, and none below that', () => {
    expect(findRememberedMapping([['Equipment', 'Basis', 'Order', 'Operator']], [memory()], 0)).toMatchObject({ sameHeaders: false });
    expect(findRememberedMapping([['Equipment', 'Basis', 'Order', 'Vessel']], [memory()], 0)).toBeNull();
    expect(findRememberedMapping([HEADER], [], 0)).toBeNull();
  });
});

describe('applyRememberedMapping', () => {
  it('maps every column from memory, saying from which file, when and by whom', () => {
    const { mapping, missing } = applyRememberedMapping(['cargo', 'OPERATOR', 'Order', 'Basis', 'Equipment'], memory(), { now: NOON_12_NOV });
    expect(mapping.map((entry) => [entry.header, entry.target, entry.match])).toEqual([
      ['cargo', null, 'unknown'],
      ['OPERATOR', 'carrier', 'remembered'],
      ['Order', 'reference', 'remembered'],
      ['Basis', 'tracking_type', 'remembered'],
      ['Equipment', 'tracking_number', 'remembered'],
    ]);
    expect(mapping[1]?.reason).toBe('As mapped for weekly-46.csv on 12 Nov, by Ana.');
    expect(missing).toEqual([]);
  });

  it('comes before synonyms, and a remembered ignore holds against a synonym', () => {
    const remembered = memory({
      fingerprint: headerFingerprint(['Container No', 'Type', 'Ref', 'Carrier']),
      columns: [
        { header: 'Container No', target: 'tracking_number' },
        { header: 'Type', target: 'tracking_type' },
        { header: 'Ref', target: 'cf_po_number' },
        { header: 'Carrier', target: null },
      ],
    });
    const { mapping } = applyRememberedMapping(['Container No', 'Type', 'Ref', 'Carrier'], remembered, { now: NOON_12_NOV });
    expect(suggestColumnMapping(['Ref'])[0]?.target).toBe('reference'); // what the synonym alone says
    expect(mapping.map((entry) => [entry.target, entry.match])).toEqual([
      ['tracking_number', 'remembered'],
      ['tracking_type', 'remembered'],
      ['cf_po_number', 'remembered'],
      [null, 'ignored'],
    ]);
    expect(mapping[3]?.reason).toBe('Ignored, as mapped for weekly-46.csv on 12 Nov, by Ana.');
  });

  it('keeps an exact match the memory agrees with as exact, and says so where they disagree', () => {
    const header = ['tracking_number', 'tracking_type', 'reference', 'name'];
    const remembered = memory({
      fingerprint: headerFingerprint(header),
      savedBy: null,
      columns: [
        { header: 'tracking_number', target: 'tracking_number' },
        { header: 'tracking_type', target: 'tracking_type' },
        { header: 'reference', target: 'name' },
        { header: 'name', target: null },
      ],
    });
    const { mapping } = applyRememberedMapping(header, remembered, { now: NOON_12_NOV });
    expect(mapping.map((entry) => [entry.target, entry.match])).toEqual([
      ['tracking_number', 'exact'],
      ['tracking_type', 'exact'],
      ['name', 'remembered'],
      [null, 'ignored'],
    ]);
    expect(mapping[0]?.warning).toBeNull();
    expect(mapping[2]?.warning).toBe(
      "“reference” is the service's own name for reference; the mapping remembered from weekly-46.csv imports it as name. Choose reference to import it as its header says.",
    );
    expect(mapping[3]?.warning).toBe(
      "“name” is the service's own name for name; the mapping remembered from weekly-46.csv ignores it. Choose name to import it as its header says.",
    );
  });

  it('says when an exact column of a close file gives up its target to a remembered one', () => {
    const { mapping } = applyRememberedMapping(['Equipment', 'Basis', 'Order', 'Operator', 'reference'], memory(), { now: NOON_12_NOV });
    expect(mapping[2]).toMatchObject({ target: 'reference', match: 'remembered' });
    expect(mapping[4]).toMatchObject({ target: null, match: 'duplicate', reason: 'reference is mapped from column C, as mapped for weekly-46.csv on 12 Nov, by Ana.' });
    expect(mapping[4]?.warning).toContain('service\'s own name for reference');
  });

  it('names the remembered columns the file lacks', () => {
    const { mapping, missing } = applyRememberedMapping(['Equipment', 'Basis', 'Order', 'Cargo'], memory(), { now: NOON_12_NOV });
    expect(mapping.map((entry) => entry.target)).toEqual(['tracking_number', 'tracking_type', 'reference', null]);
    expect(missing).toEqual([{ header: 'Operator', target: 'carrier' }]);
    expect(describeMissingColumns(missing, memory())).toBe('“Operator” (carrier), remembered from weekly-46.csv, is not in this file.');
  });
});

describe('mappingToRemember', () => {
  const base = { header: HEADER, headerRow: 0, detectedHeaderRow: 0, fileName: 'weekly-46.csv', sheet: null, savedAt: NOON_12_NOV, savedBy: 'Ana' };

  it('remembers a mapping made by hand, every column with its target', () => {
    let mapping = suggestColumnMapping(HEADER);
    mapping = setColumnTarget(mapping, 0, 'tracking_number');
    mapping = setColumnTarget(mapping, 1, 'tracking_type');
    mapping = setColumnTarget(mapping, 2, 'reference');
    mapping = setColumnTarget(mapping, 3, 'carrier');
    expect(mappingToRemember({ ...base, mapping })).toEqual(memory());
  });

  it('remembers nothing when the rules alone mapped the file, but does when the header row was chosen', () => {
    const mapping = suggestColumnMapping(['Container No', 'Type']);
    expect(mappingToRemember({ ...base, header: ['Container No', 'Type'], mapping })).toBeNull();
    expect(mappingToRemember({ ...base, header: ['Container No', 'Type'], mapping, headerRow: 1 })).toMatchObject({ headerRow: 1 });
  });
});
