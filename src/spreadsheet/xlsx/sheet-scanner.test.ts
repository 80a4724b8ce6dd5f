import { describe, expect, it } from 'vitest';
import { SharedStringsScanner } from './shared-strings';
import { type SheetContext, SheetScanner } from './sheet-scanner';

const context: SheetContext = {
  sharedStrings: ['zero', 'one'],
  styles: [null, { date: true, time: 'none', elapsed: false }],
  date1904: false,
  limits: { maxRows: Infinity, maxColumns: Infinity, maxCellLength: Infinity, maxRowXmlChars: Infinity },
};

const sheet =
  '<?xml version="1.0" encoding="UTF-8"?>\n<x:worksheet xmlns:x="urn:main"><x:sheetPr/><x:dimension ref="A1:C4"/>' +
  '<x:sheetData><x:row r="1" spans="1:3"><x:c r="A1" t="s"><x:v>1</x:v></x:c><x:c r="C1" t="inlineStr"><x:is><x:t>a &amp; b</x:t></x:is></x:c></x:row>' +
  '<!-- a comment > with a bracket --><x:row r="2"/>' +
  '<x:row r="3"><x:c r="B3" s="1"><x:v>45356</x:v></x:c><x:c r="C3" t="str"><x:f>"x"</x:f><x:v>long text beyond thirteen characters</x:v></x:c></x:row>' +
  '<x:row r="4"><!-- a note --><x:c r="A4" t="b"><x:v>0</x:v></x:c><x:extLst><x:ext uri="u"><x:y/></x:ext></x:extLst></x:row>' +
  '</x:sheetData><x:mergeCells count="1"><x:mergeCell ref="A1:B1"/></x:mergeCells></x:worksheet>';

function scanInPieces(pieces: string[]): { rows: string[][]; rowNumbers: number[] } {
  const scanner = new SheetScanner(context);
  for (const piece of pieces) scanner.push(piece);
  scanner.end();
  return { rows: scanner.rows, rowNumbers: scanner.rowNumbers };
}

describe('SheetScanner', () => {
  const expected = {
    rows: [['one', '', 'a & b'], ['', '2024-03-05', 'long text beyond thirteen characters'], ['FALSE']],
    rowNumbers: [1, 3, 4],
  };

  it('reads the same rows wherever the chunks are cut', () => {
    expect(scanInPieces([sheet])).toEqual(expected);
    for (let cut = 1; cut < sheet.length; cut++) {
      expect(scanInPieces([sheet.slice(0, cut), sheet.slice(cut)])).toEqual(expected);
    }
    expect(scanInPieces([...sheet])).toEqual(expected);
    let seed = 1;
    for (let round = 0; round < 200; round++) {
      const cuts = Array.from({ length: 4 }, () => (seed = (seed * 48271) % 2147483647) % sheet.length).sort((a, b) => a - b);
      const pieces = [0, ...cuts].map((start, index) => sheet.slice(start, [...cuts, sheet.length][index]));
      expect(scanInPieces(pieces)).toEqual(expected);
    }
  });

  it('stops at the end of the rows and refuses a sheet cut inside them', () => {
    const scanner = new SheetScanner(context);
    scanner.push(sheet.slice(0, sheet.indexOf('</x:sheetData>') + 14));
    expect(scanner.finished).toBe(true);
    const cut = new SheetScanner(context);
    cut.push(sheet.slice(0, sheet.indexOf('<x:row r="4">')));
    expect(() => cut.end()).toThrow('The workbook is damaged: the sheet ends in the middle of its rows.');
  });

  it('reads rows with a `>` in an attribute value or a `</row>` in a comment, and refuses a stray closing tag', () => {
    const odd =
      '<worksheet><sheetData><row r="1"><c r="A1" t="s" note="a > b"><v>0</v></c><!-- </row> --><c r="B1" t=\'s\'><v>1</v></c></row>' +
      '<row r="2"><c r = "C2" t = "str"><v>kept</v></c></row></sheetData></worksheet>';
    const expectedRows = [['zero', 'one'], ['', '', 'kept']];
    for (let cut = 1; cut < odd.length; cut++) {
      expect(scanInPieces([odd.slice(0, cut), odd.slice(cut)]).rows).toEqual(expectedRows);
    }
    expect(() => scanInPieces(['<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></x></row></sheetData></worksheet>'])).toThrow(
      'The workbook is damaged: a row of the sheet is broken.',
    );
  });

  it('reads cells without attributes and an empty inline string', () => {
    const bare =
      '<worksheet><sheetData><row><c><v>1</v></c><c><v>2</v></c></row>' +
      '<row><c t="inlineStr"><is/></c><c t="inlineStr"><is><t>kept</t></is></c></row></sheetData></worksheet>';
    for (let cut = 1; cut < bare.length; cut++) {
      expect(scanInPieces([bare.slice(0, cut), bare.slice(cut)]).rows).toEqual([['1', '2'], ['', 'kept']]);
    }
  });

  it('reads an empty <sheetData/>', () => {
    expect(scanInPieces(['<worksheet><sheetData/></worksheet>']).rows).toEqual([]);
  });
});

describe('SharedStringsScanner', () => {
  const sst =
    '<?xml version="1.0"?>\n<sst xmlns="urn:main" count="5"><si><t>a</t></si><si/><si><r><t>b</t></r><r><t xml:space="preserve"> c</t></r></si>' +
    '<si><t>d</t><rPh sb="0" eb="1"><t>x</t></rPh></si><si><t>e_x0009_</t></si></sst>';

  it('reads the same strings wherever the chunks are cut', () => {
    for (let cut = 0; cut <= sst.length; cut++) {
      const scanner = new SharedStringsScanner();
      scanner.push(sst.slice(0, cut));
      scanner.push(sst.slice(cut));
      expect(scanner.end()).toEqual(['a', '', 'b c', 'd', 'e\t']);
    }
  });
});
