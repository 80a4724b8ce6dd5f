import { describe, expect, it } from 'vitest';
import { SpreadsheetReadError, readTable } from './read-table';
import { headerFingerprint } from './remembered-mapping';
import { cellLength } from './table-limits';

const utf8 = (text: string) => new TextEncoder().encode(text);

async function workbook(sheets: Record<string, unknown[][]>, bookType: 'xlsx' | 'biff8' = 'xlsx'): Promise<Uint8Array> {
  const XLSX = await import('@e965/xlsx');
  const book = XLSX.utils.book_new();
  for (const [name, rows] of Object.entries(sheets)) XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), name);
  return new Uint8Array(XLSX.write(book, { type: 'array', bookType }) as ArrayBuffer);
}

async function readError(bytes: Uint8Array, fileName: string, options?: Parameters<typeof readTable>[2]): Promise<SpreadsheetReadError> {
  try {
    await readTable(bytes, fileName, options);
  } catch (error) {
    if (error instanceof SpreadsheetReadError) return error;
    throw error;
  }
  throw new Error('expected a SpreadsheetReadError');
}

describe('readTable: CSV', () => {
  it('reads rows, skipping empty lines, with the line each starts on', async () => {
    const result = await readTable(utf8('tracking_number,tracking_type\n\nCSQU3054383,container\n,\n"MAEU\n1",booking\nX,Y\n'), 'ship.csv');
    expect(result).toMatchObject({ kind: 'csv', sheet: 'ship', encoding: 'utf-8', delimiter: ',' });
    expect(result.rows).toEqual([
      ['tracking_number', 'tracking_type'],
      ['CSQU3054383', 'container'],
      ['MAEU\n1', 'booking'],
      ['X', 'Y'],
    ]);
    expect(result.rowNumbers).toEqual([1, 3, 5, 7]);
    expect(result.sheets).toEqual([{ name: 'ship', rowCount: 4 }]);
  });

  it('refuses an empty file', async () => {
    const error = await readError(new Uint8Array(), 'empty.csv');
    expect(error.code).toBe('invalid_file');
    expect(error.message).toBe('The file is empty.');
  });

  it('refuses a file of empty lines', async () => {
    expect((await readError(utf8('\n\r\n\n'), 'blank.csv')).message).toBe('The file has no rows, only empty lines.');
  });

  it('reads a header-only file as one row', async () => {
    const result = await readTable(utf8('tracking_number,tracking_type\r\n'), 'header.csv');
    expect(result.rows).toEqual([['tracking_number', 'tracking_type']]);
  });

  it('names the line of a quote that is never closed', async () => {
    const text = 'a,b\n1,2\n3,4\n\n5,6\n7,8\n8,"never closed\n9,10\n';
    const error = await readError(utf8(text), 'bad.csv');
    expect(error.code).toBe('invalid_file');
    expect(error.message).toBe('Line 7 has a quote that is never closed.');
    expect(error.line).toBe(7);
  });

  it('refuses a PNG named .csv', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    const error = await readError(png, 'shipments.csv');
    expect(error.code).toBe('unsupported_file');
    expect(error.message).toBe('This file is a PNG image, not a spreadsheet.');
  });

  it('refuses other binary data named .csv', async () => {
    const bytes = new Uint8Array(1000).map((_, i) => (i * 7919) % 256);
    expect((await readError(bytes, 'data.csv')).message).toBe('This file holds binary data, not a spreadsheet or CSV text.');
  });

  it('refuses text files that are not spreadsheets by name', async () => {
    const error = await readError(utf8('{"a":1}'), 'data.json');
    expect(error.code).toBe('unsupported_file');
    expect(error.message).toBe('Only CSV, XLS and XLSX files can be imported; this is a .json file.');
  });

  it('decodes Windows-1252 with semicolons, é intact', async () => {
    const bytes = new Uint8Array([...utf8('name;tags\n'), 0x43, 0x61, 0x66, 0xe9, ...utf8(';"a,b"\nZ;1,5\n')]);
    const result = await readTable(bytes, 'export.csv');
    expect(result.encoding).toBe('windows-1252');
    expect(result.delimiter).toBe(';');
    expect(result.rows).toEqual([
      ['name', 'tags'],
      ['Café', 'a,b'],
      ['Z', '1,5'],
    ]);
  });

  it('reads UTF-8 with a BOM and CRLF line ends', async () => {
    const result = await readTable(utf8('\uFEFFtracking_number,name\r\nCSQU3054383,Crème\r\n\r\nX,"two\r\nlines"\r\nY,z\r\n'), 'bom.csv');
    expect(result.encoding).toBe('utf-8');
    expect(result.rows).toEqual([
      ['tracking_number', 'name'],
      ['CSQU3054383', 'Crème'],
      ['X', 'two\r\nlines'],
      ['Y', 'z'],
    ]);
    expect(result.rowNumbers).toEqual([1, 2, 4, 6]);
  });

  it('reads UTF-16 with and without a BOM', async () => {
    const text = 'a\tb\n1\té\n';
    const le = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) le[i * 2] = text.charCodeAt(i);
    expect((await readTable(new Uint8Array([0xff, 0xfe, ...le]), 'u.txt')).rows).toEqual([['a', 'b'], ['1', 'é']]);
    const result = await readTable(le, 'u.csv');
    expect(result).toMatchObject({ encoding: 'utf-16le', delimiter: '\t', rows: [['a', 'b'], ['1', 'é']] });
  });

  it('detects tab and pipe delimiters and honours an override', async () => {
    expect((await readTable(utf8('a|b|c\n1|2|3\n'), 'p.csv')).delimiter).toBe('|');
    expect((await readTable(utf8('a\tb\n1\t2\n'), 't.tsv')).delimiter).toBe('\t');
    const forced = await readTable(utf8('a;b\n1;2\n'), 'c.csv', { delimiter: ',' });
    expect(forced.rows).toEqual([['a;b'], ['1;2']]);
  });

  it('keeps reading a title line above the header', async () => {
    const result = await readTable(utf8('Shipments export 2024\ntracking_number;tracking_type;carrier\nA;container;MAEU\nB;booking;MSCU\n'), 't.csv');
    expect(result.delimiter).toBe(';');
    expect(result.rows[1]).toEqual(['tracking_number', 'tracking_type', 'carrier']);
  });

  it('honours an encoding override', async () => {
    const result = await readTable(new Uint8Array([0x61, 0x0a, 0xe9, 0x0a]), 'x.csv', { encoding: 'iso-8859-15' });
    expect(result.rows).toEqual([['a'], ['é']]);
    expect(result.encoding).toBe('iso-8859-15');
  });

  it('refuses 5,000 columns over a limit, and reads them under the default', async () => {
    const header = Array.from({ length: 5000 }, (_, i) => `col${i}`).join(',');
    const bytes = utf8(`${header}\n${header}\n`);
    const error = await readError(bytes, 'wide.csv', { limits: { maxColumns: 1000 } });
    expect(error.code).toBe('too_large');
    expect(error.message).toBe('The file has 5,000 columns; the limit is 1,000.');
    const result = await readTable(bytes, 'wide.csv');
    expect(result.rows[0]).toHaveLength(5000);
  });

  it('keeps a 2 MiB cell shortened with an ellipsis and its true length, and reads the other rows', async () => {
    const bytes = utf8(`a,name\n1,first\n2,${'x'.repeat(2_097_152)}\n3,last\n`);
    const result = await readTable(bytes, 'long.csv');
    expect(result.rows.map((row) => row[0])).toEqual(['a', '1', '2', '3']);
    const long = result.rows[2]?.[1] ?? '';
    expect(long).toHaveLength(32_768);
    expect(long.endsWith('x…')).toBe(true);
    expect(cellLength(long)).toBe(2_097_152);
    expect(result.rows[3]).toEqual(['3', 'last']);
  });

  it('keeps an over-long cell shortened on the papaparse path too (a stray quote sends the file there)', async () => {
    const result = await readTable(utf8(`a,name\n1,x"y\n2,${'z'.repeat(40_000)}\n`), 'odd.csv');
    expect(result.rows[2]?.[1]).toHaveLength(32_768);
    expect(cellLength(result.rows[2]?.[1] ?? '')).toBe(40_000);
  });

  it('refuses more rows than the limit', async () => {
    const error = await readError(utf8('a\n1\n2\n3\n'), 'rows.csv', { limits: { maxRows: 2 } });
    expect(error.message).toBe('The file has 3 rows; the limit is 2.');
  });

  it('reports progress and stops when aborted', async () => {
    const fractions: number[] = [];
    await readTable(utf8('a\n1\n'), 'p.csv', { onProgress: (fraction) => fractions.push(fraction) });
    expect(fractions.at(-1)).toBe(1);
    const controller = new AbortController();
    controller.abort();
    await expect(readTable(utf8('a\n1\n'), 'p.csv', { signal: controller.signal })).rejects.toThrow();
  });
});

describe('readTable: workbooks', () => {
  it('gives cells as a person sees them: digits, leading zeros, dates, cached formula values', async () => {
    const XLSX = await import('@e965/xlsx');
    const sheet = XLSX.utils.aoa_to_sheet([
      ['number', 'text', 'date', 'decimal', 'big', 'bool'],
      [123456789, '00123', 45306, 12.5, 1e15, true],
      [123456789012, '0042', 45000.75, 0.1, -0, false],
    ]);
    for (const address of ['C2', 'C3']) {
      const cell = sheet[address] as { z?: string };
      cell.z = address === 'C2' ? 'm/d/yy' : 'yyyy-mm-dd hh:mm';
    }
    sheet['G2'] = { t: 'n', f: 'A2*2', v: 246913578 };
    sheet['!ref'] = 'A1:G3';
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Data');
    const bytes = new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer);
    const result = await readTable(bytes, 'cells.xlsx');
    expect(result.kind).toBe('xlsx');
    expect(result.rows[1]).toEqual(['123456789', '00123', '2024-01-15', '12.5', '1000000000000000', 'TRUE', '246913578']);
    expect(result.rows[2]).toEqual(['123456789012', '0042', '2023-03-15 18:00', '0.1', '0', 'FALSE']);
  });

  it('reads through SheetJS what the fast reader leaves to it, with the same limits', async () => {
    const bytes = await workbook({ Data: Array.from({ length: 30 }, (_, i) => [i]) }, 'biff8');
    const error = await readError(bytes, 'big.xls', { limits: { maxRows: 10 } });
    expect(error.message).toBe('The sheet "Data" has 29 rows; the limit is 10.');
    const cut = await readError((await workbook({ Data: [['a']] }, 'biff8')).slice(0, 600), 'cut.xls');
    expect(cut.message).toBe('This workbook could not be read; it may be damaged or cut short.');
  });

  it('reads legacy XLS', async () => {
    const bytes = await workbook({ Sheet1: [['tracking_number'], ['CSQU3054383'], [42]] }, 'biff8');
    const result = await readTable(bytes, 'old.xls');
    expect(result.kind).toBe('xls');
    expect(result.rows).toEqual([['tracking_number'], ['CSQU3054383'], ['42']]);
  });

  it('lists sheets with their row counts and reads the one asked for', async () => {
    const bytes = await workbook({
      Instructions: [['How to fill this file'], ['One shipment per row.']],
      Empty: [],
      Shipments: [['tracking_number', 'tracking_type'], [], ['CSQU3054383', 'container']],
    });
    const result = await readTable(bytes, 'book.xlsx', { sheet: 'Shipments' });
    expect(result.sheets).toEqual([
      { name: 'Instructions', rowCount: 2 },
      { name: 'Empty', rowCount: 0 },
      { name: 'Shipments', rowCount: 2 },
    ]);
    expect(result.rows).toEqual([['tracking_number', 'tracking_type'], ['CSQU3054383', 'container']]);
    expect(result.rowNumbers).toEqual([1, 3]);
    expect((await readError(bytes, 'book.xlsx', { sheet: 'Nope' })).message).toBe('The workbook has no sheet named "Nope".');
  });

  it('opens a workbook on a sheet holding a remembered set of headers, unless a sheet is asked for', async () => {
    const bytes = await workbook({
      Shipments: [['tracking_number', 'tracking_type'], ['CSQU3054383', 'container']],
      Export: [['Weekly export'], ['order', 'EQUIPMENT', 'Basis'], ['PO-1', 'MSKU1234565', 'container']],
    });
    expect((await readTable(bytes, 'book.xlsx')).sheet).toBe('Shipments');
    const remembered = [headerFingerprint(['Equipment', 'Basis', 'Order'])];
    expect((await readTable(bytes, 'book.xlsx', { rememberedHeaders: remembered })).sheet).toBe('Export');
    expect((await readTable(bytes, 'book.xlsx', { rememberedHeaders: remembered, sheet: 'Shipments' })).sheet).toBe('Shipments');
    expect((await readTable(bytes, 'book.xlsx', { rememberedHeaders: [headerFingerprint(['Vessel'])] })).sheet).toBe('Shipments');
  });

  it('refuses random bytes named .xlsx', async () => {
    let seed = 42;
    const bytes = new Uint8Array(4096).map(() => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256);
    const error = await readError(bytes, 'shipments.xlsx');
    expect(error.code).toBe('invalid_file');
    expect(error.message).toBe('This file is named .xlsx but is not an Excel workbook; it may be damaged.');
  });

  it('refuses an XLSX cut in half', async () => {
    const bytes = await workbook({ Data: Array.from({ length: 200 }, (_, i) => [`row ${i}`, i]) });
    const error = await readError(bytes.slice(0, bytes.length >> 1), 'cut.xlsx');
    expect(error.code).toBe('invalid_file');
    expect(error.message).toBe('The workbook is damaged: the zip archive ends early.');
  });

  it('refuses a Word document', async () => {
    const { zipSync } = await import('fflate');
    const bytes = zipSync({ '[Content_Types].xml': utf8('<Types/>'), 'word/document.xml': utf8('<w:document/>') });
    expect((await readError(bytes, 'letter.xlsx')).message).toBe('This file is a Word document, not a spreadsheet.');
  });

  it('reads CSV text that was saved with an .xls name', async () => {
    const result = await readTable(utf8('a;b\n1;2\n'), 'export.xls');
    expect(result).toMatchObject({ kind: 'csv', delimiter: ';', rows: [['a', 'b'], ['1', '2']] });
  });

  it('refuses a workbook sheet over the row limit', async () => {
    const bytes = await workbook({ Data: Array.from({ length: 30 }, (_, i) => [i]) });
    const error = await readError(bytes, 'big.xlsx', { limits: { maxRows: 10 } });
    expect(error.code).toBe('too_large');
    expect(error.message).toBe('The sheet "Data" has more rows than the limit of 10.');
  });
});
