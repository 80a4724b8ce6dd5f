import * as XLSX from '@e965/xlsx';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { escapeFormula, toEscapedCsv, toEscapedXlsx, type ExportTable } from './result-export';

const table: ExportTable = {
  columns: ['tracking_number', 'name', 'error'],
  rows: [
    ['00123', '=HYPERLINK("http://evil")', 'carrier: Not a carrier'],
    ['MSCU1234566', 'a, "quoted"\r\nsecond line', ''],
    ['2024-05-01', '+1', '@SUM(A1)'],
    ['x', '-2', '=1\n+2'],
  ],
};

describe('escapeFormula', () => {
  it('prefixes a cell a spreadsheet would run with an apostrophe, whatever follows the first character', () => {
    expect(['=A1', '+1', '-1', '@x', '\tx', '\rx', '=1\n+2', 'plain', '', "'=already"].map(escapeFormula)).toEqual([
      "'=A1",
      "'+1",
      "'-1",
      "'@x",
      "'\tx",
      "'\rx",
      "'=1\n+2",
      'plain',
      '',
      "'=already",
    ]);
  });
});

describe('toEscapedCsv', () => {
  it('writes the columns as given and every formula-like cell escaped, read back by papaparse', () => {
    const [header, ...rows] = Papa.parse<string[]>(toEscapedCsv(table), { newline: '\r\n' }).data;
    expect(header).toEqual(['tracking_number', 'name', 'error']);
    expect(rows).toEqual([
      ['00123', '\'=HYPERLINK("http://evil")', 'carrier: Not a carrier'],
      ['MSCU1234566', 'a, "quoted"\r\nsecond line', ''],
      ['2024-05-01', "'+1", "'@SUM(A1)"],
      ['x', "'-2", "'=1\n+2"],
    ]);
  });
});

describe('toEscapedXlsx', () => {
  it('writes text cells escaped as in the CSV, read back by SheetJS', () => {
    const book = XLSX.read(toEscapedXlsx(XLSX, table, 'failed rows'), { type: 'array' });
    expect(book.SheetNames).toEqual(['failed rows']);
    const sheet = book.Sheets['failed rows']!;
    const rows = XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1, raw: true, defval: '' });
    expect(rows).toEqual([
      ['tracking_number', 'name', 'error'],
      ['00123', '\'=HYPERLINK("http://evil")', 'carrier: Not a carrier'],
      // XML carries a line break as LF (a workbook cannot keep CR LF).
      ['MSCU1234566', 'a, "quoted"\nsecond line', ''],
      ['2024-05-01', "'+1", "'@SUM(A1)"],
      ['x', "'-2", "'=1\n+2"],
    ]);
    // No cell is a formula or a number: each is text as sent.
    expect(Object.entries(sheet).filter(([address]) => !address.startsWith('!')).every(([, cell]) => (cell as XLSX.CellObject).t === 's' && !(cell as XLSX.CellObject).f)).toBe(true);
  });
});
