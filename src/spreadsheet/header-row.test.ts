import { describe, expect, it } from 'vitest';
import { detectHeaderRow, isIdentifierLike, pickSheet } from './header-row';
import { readTable } from './read-table';

describe('detectHeaderRow', () => {
  it('finds the header under a title and notes', () => {
    const rows = [
      ['Shipments for week 32'],
      ['Exported by ops', '2024-08-05'],
      ['Container No', 'Type', 'SCAC', 'Ref'],
      ['CSQU3054383', 'container', 'MAEU', 'R1'],
    ];
    expect(detectHeaderRow(rows)).toBe(2);
  });

  it('keeps the first row when no row looks like a header', () => {
    expect(detectHeaderRow([['a', 'b'], ['1', '2']])).toBe(0);
    expect(detectHeaderRow([])).toBe(0);
  });

  it('prefers the row with more spec columns over a note that mentions one', () => {
    const rows = [['tracking_number'], ['tracking_number', 'tracking_type', 'carrier']];
    expect(detectHeaderRow(rows)).toBe(1);
  });

  it('does not take a row of data for the header because one of its values is a synonym', () => {
    // "container" is a synonym of tracking_number; the file's own names are unknown words.
    const rows = [
      ['Equipment', 'Basis', 'Order', 'Operator', 'Cargo'],
      ['MSKU1234565', 'container', 'PO-10021', 'MAEU', 'Toys'],
      ['TGHU9876541', 'container', 'PO-10022', 'MSCU', 'Shoes'],
    ];
    expect(detectHeaderRow(rows)).toBe(0);
  });

  it('takes the first row of distinct names above rows of identifiers, under a title', () => {
    const rows = [
      ['Weekly export'],
      ['Equipment', 'Basis', 'Order'],
      ['MSKU1234565', 'container', 'PO-10021'],
    ];
    expect(detectHeaderRow(rows)).toBe(1);
  });

  it('keeps a known header whose data rows hold identifiers', () => {
    const rows = [
      ['Notes about this file', ''],
      ['Container No', 'Type', 'Ref'],
      ['MSKU1234565', 'container', 'R-1001'],
    ];
    expect(detectHeaderRow(rows)).toBe(1);
  });
});

describe('isIdentifierLike', () => {
  it('tells a shipment identifier from a column name', () => {
    for (const value of ['MSKU1234565', 'MAEU123456789', 'PO-10021', 'R1001a']) expect(isIdentifierLike(value)).toBe(true);
    for (const value of ['Container No', 'container', 'ETA', '2024-08-05', '12345', 'Ref 2024', 'cf_po_number']) expect(isIdentifierLike(value)).toBe(false);
  });
});

describe('pickSheet', () => {
  it('does not pick a first sheet of instructions', () => {
    const sheets = [
      {
        name: 'Instructions',
        rowCount: 4,
        head: [
          ['How to fill in this file'],
          ['Column', 'Meaning'],
          ['tracking_number', 'The container, B/L or booking number'],
          ['tracking_type', 'container, bill_of_lading or booking'],
        ],
      },
      { name: 'Shipments', rowCount: 3, head: [['tracking_number', 'tracking_type', 'carrier'], ['A', 'container', 'MAEU']] },
    ];
    expect(pickSheet(sheets)).toBe('Shipments');
  });

  it('falls back to the first non-empty sheet', () => {
    expect(pickSheet([{ name: 'Empty', rowCount: 0, head: [] }, { name: 'Data', rowCount: 2, head: [['x'], ['y']] }])).toBe('Data');
  });

  it('pre-selects the data sheet when reading a workbook whose first sheet is instructions', async () => {
    const XLSX = await import('@e965/xlsx');
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['Read me first'], ['Put one shipment per row in the next sheet.'], ['tracking_number is required.']]), 'Read me');
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['Tracking Number', 'Type', 'Carrier'], ['CSQU3054383', 'Container', 'maeu']]), 'Data');
    const bytes = new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
    const result = await readTable(bytes, 'book.xlsx');
    expect(result.sheet).toBe('Data');
    expect(result.sheets.map((sheet) => sheet.name)).toEqual(['Read me', 'Data']);
    expect(result.rows[1]).toEqual(['CSQU3054383', 'Container', 'maeu']);
  });
});
