import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { XlsxDeclinedError, XlsxReadError, openXlsx, readXlsx } from './read-xlsx';
import { cellLength } from '../table-limits';
import { handWorkbook, oneSheet, writeZip } from './test-workbooks';

async function rowsOf(bytes: Uint8Array, sheet?: string): Promise<string[][]> {
  return (await readXlsx(bytes, sheet === undefined ? {} : { sheet })).rows;
}

function sheetjsBytes(sheets: Record<string, XLSX.WorkSheet>, options: Partial<XLSX.WritingOptions> = {}): Uint8Array {
  const book = XLSX.utils.book_new();
  for (const [name, sheet] of Object.entries(sheets)) XLSX.utils.book_append_sheet(book, sheet, name);
  return new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx', ...options }) as ArrayBuffer);
}

async function readError(read: Promise<unknown>): Promise<XlsxReadError> {
  const error: unknown = await read.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(XlsxReadError);
  return error as XlsxReadError;
}

describe('zip container', () => {
  const rows = '<row r="1"><c r="A1" t="inlineStr"><is><t>ok</t></is></c><c r="B1"><v>7</v></c></row>';

  it('reads stored (uncompressed) entries', async () => {
    expect(await rowsOf(oneSheet(rows, { stored: true }))).toEqual([['ok', '7']]);
  });

  it('reads zip64 archives', async () => {
    expect(await rowsOf(oneSheet(rows, { zip64: true }))).toEqual([['ok', '7']]);
  });

  it('finds entries whatever the case of their names', async () => {
    expect(await rowsOf(oneSheet(rows, { upperCaseNames: true }))).toEqual([['ok', '7']]);
  });

  it('refuses a truncated archive with a sentence', async () => {
    const bytes = sheetjsBytes({ S: XLSX.utils.aoa_to_sheet([['a', 'b']]) });
    for (const length of [bytes.length - 10, Math.floor(bytes.length / 2), 100]) {
      const error = await readError(readXlsx(bytes.subarray(0, length)));
      expect(error.code).toBe('invalid_file');
      expect(error.message).toBe('The workbook is damaged: the zip archive ends early.');
    }
  });

  it('refuses bytes that are not a zip archive', async () => {
    let seed = 7;
    const random = Uint8Array.from({ length: 5000 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0xff);
    const error = await readError(readXlsx(random));
    expect(error.code).toBe('invalid_file');
    expect(error.message).toBe('The file is not an XLSX workbook: it is not a zip archive.');
    // Random bytes after a zip signature: no directory at the end.
    random.set([0x50, 0x4b, 3, 4]);
    expect((await readError(readXlsx(random))).message).toBe('The workbook is damaged: the zip archive ends early.');
    expect(() => openXlsx(new Uint8Array(0)).sheets).toThrow(XlsxReadError);
  });

  it('refuses an entry whose compressed data is corrupt', async () => {
    const varied = Array.from({ length: 500 }, (_, index) => `<row r="${index + 1}"><c><v>${index * 7919}</v></c></row>`).join('');
    const corrupt = oneSheet(varied).slice();
    // Entries are written in order, so the first occurrence of the name is the local header.
    const name = new TextEncoder().encode('xl/worksheets/sheet1.xml');
    const data = indexOfBytes(corrupt, name) + name.length;
    corrupt.fill(0xff, data + 40, data + 60);
    const error = await readError(readXlsx(corrupt));
    expect(error.code).toBe('invalid_file');
    expect(error.message).toMatch(/^The workbook is damaged: /);
  });

  it('declines encrypted workbooks (CFB containers) for SheetJS', async () => {
    const cfb = new Uint8Array(4096);
    cfb.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    await expect(readXlsx(cfb)).rejects.toBeInstanceOf(XlsxDeclinedError);
    expect(() => openXlsx(cfb).sheets).toThrow(XlsxDeclinedError);
  });

  it('declines .xlsb and strict OOXML workbooks', async () => {
    const xlsb = sheetjsBytes({ S: XLSX.utils.aoa_to_sheet([['a']]) }, { bookType: 'xlsb' });
    await expect(readXlsx(xlsb)).rejects.toBeInstanceOf(XlsxDeclinedError);
    const strict = writeZip([
      {
        name: '_rels/.rels',
        data: '<Relationships><Relationship Id="rId1" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
      },
      { name: 'xl/workbook.xml', data: '<workbook xmlns="http://purl.oclc.org/ooxml/spreadsheetml/main"/>' },
    ]);
    await expect(readXlsx(strict)).rejects.toBeInstanceOf(XlsxDeclinedError);
  });

  it('refuses a package without a workbook part or sheet part', async () => {
    const empty = writeZip([{ name: 'hello.txt', data: 'hello' }]);
    expect((await readError(readXlsx(empty))).message).toBe('The workbook is damaged: it has no workbook part (xl/workbook.xml).');
    const noSheet = writeZip([
      {
        name: 'xl/workbook.xml',
        data: '<workbook xmlns:r="r"><sheets><sheet name="Data" r:id="rId1"/></sheets></workbook>',
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: '<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/missing.xml"/></Relationships>',
      },
    ]);
    expect((await readError(readXlsx(noSheet))).message).toBe('The workbook is damaged: the sheet "Data" has no cell data part.');
  });
});

function indexOfBytes(bytes: Uint8Array, needle: Uint8Array): number {
  for (let at = 0; at + needle.length <= bytes.length; at++) {
    if (needle.every((byte, k) => bytes[at + k] === byte)) return at;
  }
  return -1;
}

describe('sheets', () => {
  const book = handWorkbook({
    sheets: [
      { name: 'Hidden', xml: '<row r="1"><c t="inlineStr"><is><t>hidden</t></is></c></row>', state: 'hidden' },
      { name: 'Shipments', xml: '<row r="1"><c t="inlineStr"><is><t>first</t></is></c></row>' },
      { name: 'Very & hidden', xml: '', state: 'veryHidden' },
      { name: 'Other', xml: '<row r="1"><c t="inlineStr"><is><t>other</t></is></c></row>' },
    ],
  });

  it('lists every sheet in workbook order with its visibility', () => {
    expect(openXlsx(book).sheets).toEqual([
      { name: 'Hidden', hidden: true },
      { name: 'Shipments', hidden: false },
      { name: 'Very & hidden', hidden: true },
      { name: 'Other', hidden: false },
    ]);
  });

  it('reads the first visible sheet by default, or the one named', async () => {
    const first = await readXlsx(book);
    expect(first.sheet).toBe('Shipments');
    expect(first.rows).toEqual([['first']]);
    expect(first.sheets).toHaveLength(4);
    expect(await rowsOf(book, 'Other')).toEqual([['other']]);
    expect(await rowsOf(book, 'hidden')).toEqual([['hidden']]);
    expect(await rowsOf(book, 'Very & hidden')).toEqual([]);
  });

  it('reads every sheet of a workbook opened once as readXlsx reads each, shared strings included', async () => {
    const shared = sheetjsBytes(
      {
        Shipments: XLSX.utils.aoa_to_sheet([['Reference', 'Carrier'], ['REF-1', 'MAEU'], ['REF-2', 'MSCU']]),
        Carriers: XLSX.utils.aoa_to_sheet([['MAEU', 'Maersk'], ['MSCU', 'MSC']]),
        Notes: XLSX.utils.aoa_to_sheet([['Carrier codes are SCACs.']]),
      },
      { bookSST: true },
    );
    const workbook = openXlsx(shared);
    expect(workbook.sheets.map((sheet) => sheet.name)).toEqual(['Shipments', 'Carriers', 'Notes']);
    for (const name of ['Carriers', 'Shipments', 'Notes', 'Carriers']) {
      expect(await workbook.read({ sheet: name })).toEqual(await readXlsx(shared, { sheet: name }));
    }
    expect((await workbook.read({ sheet: 'Carriers' })).rows).toEqual([['MAEU', 'Maersk'], ['MSCU', 'MSC']]);
  });

  it('refuses a sheet name the workbook does not have', async () => {
    expect((await readError(readXlsx(book, { sheet: 'Nope' }))).message).toBe('The workbook has no sheet named "Nope".');
  });

  it('follows the relationships to sheet parts with any name', async () => {
    const bytes = writeZip([
      {
        name: 'xl/workbook.xml',
        data: '<workbook xmlns:rel="urn:r"><sheets><sheet name="A" rel:id="x9"/></sheets></workbook>',
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: '<Relationships><Relationship Id="x9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="/xl/data/../data/Table.xml"/></Relationships>',
      },
      { name: 'XL/Data/table.xml', data: '<worksheet><sheetData><row><c t="inlineStr"><is><t>found</t></is></c></row></sheetData></worksheet>' },
    ]);
    expect(await rowsOf(bytes)).toEqual([['found']]);
  });
});

describe('text encoding', () => {
  it('reads parts written in UTF-16 with a byte-order mark', async () => {
    const utf16 = (text: string) => {
      const bytes = new Uint8Array(2 + text.length * 2);
      bytes.set([0xff, 0xfe]);
      for (let index = 0; index < text.length; index++) {
        bytes[2 + index * 2] = text.charCodeAt(index) & 0xff;
        bytes[3 + index * 2] = text.charCodeAt(index) >> 8;
      }
      return bytes;
    };
    const bytes = writeZip([
      { name: 'xl/workbook.xml', data: utf16('<?xml version="1.0" encoding="UTF-16"?><workbook xmlns:r="r"><sheets><sheet name="Zürich" r:id="rId1"/></sheets></workbook>') },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: '<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
      },
      { name: 'xl/worksheets/sheet1.xml', data: utf16('<worksheet><sheetData><row><c t="inlineStr"><is><t>上海</t></is></c></row></sheetData></worksheet>') },
    ]);
    expect(await readXlsx(bytes)).toMatchObject({ sheet: 'Zürich', rows: [['上海']] });
  });

  it('keeps characters whole where decompressed chunks split them', async () => {
    const values = Array.from({ length: 40_000 }, (_, index) => `上海 → Zürich ${index} 📦`);
    const rows = values.map((value, index) => `<row r="${index + 1}"><c r="A${index + 1}" t="inlineStr"><is><t>${value}</t></is></c></row>`).join('');
    const result = await readXlsx(oneSheet(rows));
    expect(result.rows.map(([value]) => value)).toEqual(values);
  });
});

describe('shared strings', () => {
  it('reads plain and rich text, skips phonetic runs, keeps the index of empty entries', async () => {
    const sst = [
      '<si><t>plain</t></si>',
      '<si/>',
      '<si><r><rPr><b/></rPr><t>Bold</t></r><r><t xml:space="preserve"> and plain</t></r></si>',
      '<si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/></si>',
      '<si><t></t></si>',
      '<si><t>&lt;a&gt; &amp; &quot;b&quot; &apos;c&apos; &#65;&#x1F600;&#10;</t></si>',
      '<si><t>line_x000D__x000A_two _x005F_x0041_ _x0041_</t></si>',
      '<si>\n  <t xml:space="preserve">  spaced  </t>\n</si>',
      '<si><t/></si>',
      '<si><t>last</t></si>',
    ].join('');
    const rows = Array.from({ length: 10 }, (_, index) => `<c r="${'ABCDEFGHIJ'[index]}1" t="s"><v>${index}</v></c>`).join('');
    expect(await rowsOf(oneSheet(`<row r="1">${rows}</row>`, { sharedStrings: sst }))).toEqual([
      ['plain', '', 'Bold and plain', '東京', '', '<a> & "b" \'c\' A😀\n', 'line\r\ntwo _x0041_ A', '  spaced  ', '', 'last'],
    ]);
  });

  it('refuses a cell that points past the table', async () => {
    const bytes = oneSheet('<row r="1"><c r="A1" t="s"><v>3</v></c></row>', { sharedStrings: '<si><t>only</t></si>' });
    expect((await readError(readXlsx(bytes))).message).toBe('The workbook is damaged: a cell refers to shared string 3, which does not exist.');
  });

  it('reads strings with an x: namespace prefix', async () => {
    const bytes = oneSheet('<x:row r="1"><x:c r="A1" t="s"><x:v>1</x:v></x:c><x:c r="B1" t="s"><x:v>0</x:v></x:c></x:row>', {
      prefix: 'x',
      sharedStrings: '<x:si><x:t>zero</x:t></x:si><x:si><x:r><x:t>o</x:t></x:r><x:r><x:t>ne</x:t></x:r><x:rPh><x:t>no</x:t></x:rPh></x:si>',
    });
    expect(await rowsOf(bytes)).toEqual([['one', 'zero']]);
  });
});

describe('cells', () => {
  it('reads every cell type, formulas by their cached value', async () => {
    const bytes = oneSheet(
      '<row r="1">' +
        '<c r="A1" t="s"><v>0</v></c>' +
        '<c r="B1" t="inlineStr"><is><r><t>in</t></r><r><t>line</t></r></is></c>' +
        '<c r="C1" t="str"><f>A1&amp;"!"</f><v>shared!</v></c>' +
        '<c r="D1" t="b"><v>1</v></c><c r="E1" t="b"><v>0</v></c>' +
        '<c r="F1" t="e"><f>NA()</f><v>#N/A</v></c>' +
        '<c r="G1" t="d"><v>2024-03-05T00:00:00Z</v></c>' +
        '<c r="H1"><f>1+1</f><v>2</v></c>' +
        '<c r="I1" t="n"><v>-12.5</v></c>' +
        '<c r="J1"><f>NOW()</f></c>' +
        '<c r="K1" t="str"><v>x</v></c>' +
        '</row>',
      { sharedStrings: '<si><t>shared</t></si>' },
    );
    expect(await rowsOf(bytes)).toEqual([['shared', 'inline', 'shared!', 'TRUE', 'FALSE', '#N/A', '2024-03-05', '2', '-12.5', '', 'x']]);
  });

  it('places cells without references, skips empty rows and keeps column gaps', async () => {
    const bytes = oneSheet(
      '<row r="2"><c t="inlineStr"><is><t>a</t></is></c><c/><c><v>3</v></c></row>' +
        '<row r="3"/>' +
        '<row r="4"><c r="B4" s="0"/><c r="C4" t="s"><v>0</v></c></row>' +
        '<row r="6" spans="1:4"><c r="D6"><v>1</v></c><c r="B6"><v>2</v></c></row>' +
        '<row><c r="A7"><v>7</v></c></row>' +
        '<row><c><v>8</v></c></row>',
      { sharedStrings: '<si><t></t></si>' },
    );
    const result = await readXlsx(bytes);
    expect(result.rows).toEqual([['a', '', '3'], ['', '2', '', '1'], ['7'], ['8']]);
    expect(result.rowNumbers).toEqual([2, 6, 7, 8]);
  });

  it('reads a worksheet whose elements all carry a namespace prefix', async () => {
    const bytes = oneSheet('<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>x</x:t></x:is></x:c><x:c r="C1"><x:v>0.5</x:v></x:c></x:row>', {
      prefix: 'x',
    });
    expect(await rowsOf(bytes)).toEqual([['x', '', '0.5']]);
  });

  it('shows numbers as plain digits at 15 significant digits', async () => {
    const values = ['142300123456', '1.42300123456E+11', '0.30000000000000004', '12.0', '-0', '1E+21', '1.5E-7', '123456789012345678'];
    const odd = ['0', '-0.5', '0.50', '007', '.5', '5.', '1e3', ' 7 ', '-12', '4.35', 'n/a'];
    const cells = [...values, ...odd].map((value, index) => `<c r="${XLSX.utils.encode_col(index)}1"><v>${value}</v></c>`).join('');
    expect(await rowsOf(oneSheet(`<row r="1">${cells}</row>`))).toEqual([
      ['142300123456', '142300123456', '0.3', '12', '0', '1000000000000000000000', '0.00000015', '123456789012346000',
        '0', '-0.5', '0.5', '7', '0.5', '5', '1000', '7', '-12', '4.35', 'n/a'],
    ]);
  });
});

describe('dates', () => {
  const builtIns = [14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47, 0, 2, 9, 10, 49];
  const serial = 45356.75; // 2024-03-05 18:00

  it('shows built-in date and time formats as ISO text', async () => {
    const cellXfs = builtIns.map((id) => `<xf numFmtId="${id}"/>`).join('');
    const cells = builtIns.map((_, index) => `<c r="${XLSX.utils.encode_col(index)}1" s="${index}"><v>${serial}</v></c>`).join('');
    const [row] = await rowsOf(oneSheet(`<row r="1">${cells}</row>`, { cellXfs }));
    expect(row).toEqual([
      '2024-03-05',
      '2024-03-05',
      '2024-03-05',
      '2024-03-05',
      '18:00',
      '18:00:00',
      '18:00',
      '18:00:00',
      '2024-03-05 18:00',
      '18:00:00',
      '1088562:00:00',
      '18:00:00',
      '45356.75',
      '45356.75',
      '45356.75',
      '45356.75',
      '45356.75',
    ]);
  });

  it("shows the date and time formats built into Chinese, Japanese and Korean Excel as ISO text", async () => {
    const ids = [27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58];
    const cellXfs = ids.map((id) => `<xf numFmtId="${id}"/>`).join('');
    const cells = ids.map((_, index) => `<c r="${XLSX.utils.encode_col(index)}1" s="${index}"><v>${serial}</v></c>`).join('');
    const [row] = await rowsOf(oneSheet(`<row r="1">${cells}</row>`, { cellXfs }));
    const shown = Object.fromEntries(ids.map((id, index) => [id, row?.[index]]));
    for (const id of [27, 28, 29, 30, 31, 36, 50, 51, 54, 57, 58]) expect(shown[id], `format ${id}`).toBe('2024-03-05');
    expect([shown[32], shown[33]]).toEqual(['18:00', '18:00:00']);
    // A time in one of those locales, a date in another: the number, rather than a wrong half.
    for (const id of [34, 35, 52, 53, 55, 56]) expect(shown[id], `format ${id}`).toBe('45356.75');
  });

  it('recognises custom date formats despite quoted text, escapes, locales and colours', async () => {
    const formats = [
      'yyyy-mm-dd',
      'dd/mm/yyyy;@',
      '[$-409]d-mmm-yy;@',
      '[Red]dd.mm.yyyy',
      '"Due "yyyy\\-mm\\-dd',
      'd mmmm yyyy hh:mm:ss',
      '[h]:mm',
      'mm:ss',
      'h:mm AM/PM',
      '0.00 "days"',
      '#,##0.00_);[Red](#,##0.00)',
      '0%',
      '"yyyy"0',
      '\\d0',
      'General',
    ];
    const numFmts = formats.map((code, index) => `<numFmt numFmtId="${164 + index}" formatCode="${code.replace(/"/g, '&quot;')}"/>`).join('');
    const cellXfs = formats.map((_, index) => `<xf numFmtId="${164 + index}"/>`).join('');
    const cells = formats.map((_, index) => `<c r="${XLSX.utils.encode_col(index)}1" s="${index}"><v>${serial}</v></c>`).join('');
    const [row] = await rowsOf(oneSheet(`<row r="1">${cells}</row>`, { numFmts, cellXfs }));
    expect(row).toEqual([
      '2024-03-05',
      '2024-03-05',
      '2024-03-05',
      '2024-03-05',
      '2024-03-05',
      '2024-03-05 18:00:00',
      '1088562:00',
      '18:00:00',
      '18:00',
      '45356.75',
      '45356.75',
      '45356.75',
      '45356.75',
      '45356.75',
      '45356.75',
    ]);
  });

  it("keeps Excel's 1900 leap-year bug and reads the 1904 system", async () => {
    const serials = [1, 59, 60, 61, 0, 2958465, 2958466, -1, 43831];
    const cells = serials.map((value, index) => `<c r="${XLSX.utils.encode_col(index)}1" s="1"><v>${value}</v></c>`).join('');
    const cellXfs = '<xf numFmtId="0"/><xf numFmtId="14"/>';
    expect(await rowsOf(oneSheet(`<row r="1">${cells}</row>`, { cellXfs }))).toEqual([
      ['1900-01-01', '1900-02-28', '1900-02-29', '1900-03-01', '1900-01-00', '9999-12-31', '2958466', '-1', '2020-01-01'],
    ]);
    expect(await rowsOf(oneSheet(`<row r="1">${cells}</row>`, { cellXfs, date1904: true }))).toEqual([
      ['1904-01-02', '1904-02-29', '1904-03-01', '1904-03-02', '1904-01-01', '2958465', '2958466', '-1', '2024-01-02'],
    ]);
  });

  it('gives the same dates in every time zone', async () => {
    const bytes = oneSheet('<row r="1"><c r="A1" s="1"><v>45356.99999</v></c><c r="B1" s="1"><v>45357</v></c></row>', {
      cellXfs: '<xf numFmtId="0"/><xf numFmtId="14"/>',
    });
    const zone = process.env.TZ;
    try {
      for (const tz of ['UTC', 'Pacific/Kiritimati', 'America/Los_Angeles']) {
        process.env.TZ = tz;
        expect(await rowsOf(bytes)).toEqual([['2024-03-05', '2024-03-06']]);
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('reads dates SheetJS writes with a number format', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([['eta']]);
    sheet.A2 = { t: 'n', v: 45356, z: 'yyyy-mm-dd' };
    sheet.A3 = { t: 'n', v: 45356.5, z: 'm/d/yy h:mm' };
    sheet['!ref'] = 'A1:A3';
    expect(await rowsOf(sheetjsBytes({ S: sheet }))).toEqual([['eta'], ['2024-03-05'], ['2024-03-05 12:00']]);
  });
});

describe('limits, progress and cancel', () => {
  const bigRows = Array.from({ length: 3000 }, (_, index) => `<row r="${index + 1}"><c t="inlineStr"><is><t>row ${index} ${'x'.repeat(index % 40)}</t></is></c><c><v>${index}</v></c></row>`).join('');
  const big = oneSheet(bigRows);

  it('refuses more rows, columns or characters than the limits allow', async () => {
    const rows = await readError(readXlsx(big, { limits: { maxRows: 2999 } }));
    expect([rows.code, rows.message]).toEqual(['too_large', 'The sheet has more than 2,999 rows.']);
    expect((await readXlsx(big, { limits: { maxRows: 3000, maxColumns: 2, maxCellLength: 50 } })).rows).toHaveLength(3000);
    const columns = await readError(readXlsx(big, { limits: { maxColumns: 1 } }));
    expect([columns.code, columns.message]).toEqual(['too_large', 'The sheet has more than 1 columns.']);
    // An over-long cell is its row's error, not the file's: kept shortened, with its true length.
    const shortened = await readXlsx(big, { limits: { maxCellLength: 20 } });
    expect(shortened.rows).toHaveLength(3000);
    expect(shortened.rows[14]?.[0]).toBe(`${'row 14 xxxxxxxxxxxxxx'.slice(0, 20)}…`);
    expect(cellLength(shortened.rows[14]?.[0] ?? '')).toBe(21);
  });

  it('reports rising progress that ends at 1', async () => {
    const fractions: number[] = [];
    await readXlsx(big, { onProgress: (fraction) => fractions.push(fraction) });
    expect(fractions.at(-1)).toBe(1);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
  });

  it('rejects with an AbortError when cancelled before or during the read', { timeout: 30_000 }, async () => {
    const before = new AbortController();
    before.abort();
    await expect(readXlsx(big, { signal: before.signal })).rejects.toMatchObject({ name: 'AbortError' });

    const during = new AbortController();
    const rows = Array.from({ length: 200_000 }, (_, index) => `<row r="${index + 1}"><c><v>${index}</v></c></row>`).join('');
    const huge = oneSheet(rows);
    const read = readXlsx(huge, { signal: during.signal });
    setTimeout(() => during.abort(), 5);
    await expect(read).rejects.toMatchObject({ name: 'AbortError' });
  });
});
