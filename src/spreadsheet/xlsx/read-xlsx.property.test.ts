/**
 * The reader and SheetJS agree cell by cell on a few hundred random workbooks written by SheetJS.
 * SheetJS's raw values are normalized independently of the reader's code: numbers through
 * `Intl.NumberFormat` (15 significant digits, no grouping, never an exponent), dates through
 * SheetJS's own `SSF.is_date` and `SSF.parse_date_code`.
 *
 * Deliberate differences, left out of the comparison by the normalization:
 * - SheetJS's formatted text (`w`) shows 12-digit numbers as `1.423E+11`; the raw value is compared.
 * - SheetJS reads a written CR LF (`_x000D_` + line feed) back as a bare LF; the reader keeps the
 *   CR, so strings are also compared with the value that was written.
 */
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { openXlsx, readXlsx } from './read-xlsx';
import { seededRandom } from '../seeded-random';

interface Ssf {
  is_date(format: string): boolean;
  parse_date_code(serial: number, options?: { date1904?: boolean }): { y: number; m: number; d: number; H: number; M: number };
}
const SSF = XLSX.SSF as Ssf;

const STRINGS = [
  'MSKU1234565',
  '00123',
  '0',
  ' leading space',
  'trailing space ',
  '  ',
  'Ünïcödé Straße',
  '東京 → 上海',
  'box 📦 emoji',
  'a & b < c > d "quoted" \'single\'',
  'line one\nline two',
  'crlf\r\nline',
  'tab\there',
  '1e5',
  '=SUM(A1)',
  'TRUE',
  '-0012.50',
  'x'.repeat(300),
];
const DATE_FORMATS = ['yyyy-mm-dd', 'dd/mm/yyyy', 'm/d/yy', 'd-mmm-yy', '[$-409]d-mmm-yyyy;@', 'dd.mm.yyyy hh:mm'];

type Generated = string | number | boolean | { serial: number; format: string } | null;

function randomCell(random: () => number): Generated {
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  switch (Math.floor(random() * 7)) {
    case 0:
      return null;
    case 1:
      return random() < 0.5 ? pick(STRINGS) : `ref-${Math.floor(random() * 1e6)}`;
    case 2: {
      const digits = 1 + Math.floor(random() * 12);
      const value = Math.floor(random() * 10 ** digits);
      return random() < 0.2 ? -value : value;
    }
    case 3: {
      const scale = 10 ** Math.floor(random() * 6);
      const value = Math.round(random() * 1e7) / scale;
      return random() < 0.1 ? 0.1 + 0.2 : random() < 0.2 ? -value : value;
    }
    case 4:
      return random() < 0.5;
    case 5: {
      const format = pick(DATE_FORMATS);
      const day = 1 + Math.floor(random() * 80_000);
      // Whole seconds only: SheetJS floors sub-seconds, the reader rounds them.
      const seconds = format.includes('h') ? Math.floor(random() * 86_400) : 0;
      return { serial: day + seconds / 86_400, format };
    }
    default:
      return pick(STRINGS);
  }
}

function toSheetjsCell(value: Exclude<Generated, null>): XLSX.CellObject {
  if (typeof value === 'string') return { t: 's', v: value };
  if (typeof value === 'number') return { t: 'n', v: value };
  if (typeof value === 'boolean') return { t: 'b', v: value };
  return { t: 'n', v: value.serial, z: value.format };
}

const plain = new Intl.NumberFormat('en-US', { useGrouping: false, maximumSignificantDigits: 15 });

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** A SheetJS cell as a person sees it, built from SheetJS's raw value and number format. */
function expectedText(cell: XLSX.CellObject | undefined): string {
  if (!cell || cell.v === undefined) return '';
  switch (cell.t) {
    case 'b':
      return cell.v ? 'TRUE' : 'FALSE';
    case 'n': {
      const value = cell.v as number;
      if (typeof cell.z === 'string' && SSF.is_date(cell.z)) {
        const code = SSF.parse_date_code(value);
        const date = `${code.y}-${pad(code.m)}-${pad(code.d)}`;
        return /h/i.test(cell.z) ? `${date} ${pad(code.H)}:${pad(code.M)}` : date;
      }
      return value === 0 ? '0' : plain.format(value);
    }
    case 'e':
      return cell.w ?? '';
    default:
      return String(cell.v);
  }
}

describe('the reader agrees with SheetJS on random workbooks', () => {
  // Generous timeout: 300 SheetJS writes and reads take a few seconds on a busy machine.
  it('cell by cell, on 300 workbooks', { timeout: 60_000 }, async () => {
    const random = seededRandom(20_260_521);
    for (let book = 0; book < 300; book++) {
      const rowCount = 1 + Math.floor(random() * 25);
      const columnCount = 1 + Math.floor(random() * 8);
      const generated: Generated[][] = Array.from({ length: rowCount }, () => Array.from({ length: columnCount }, () => randomCell(random)));
      const sheet: XLSX.WorkSheet = {};
      generated.forEach((row, r) =>
        row.forEach((value, c) => {
          if (value !== null) sheet[XLSX.utils.encode_cell({ r, c })] = toSheetjsCell(value);
        }),
      );
      sheet['!ref'] = XLSX.utils.encode_range({ r: 0, c: 0 }, { r: rowCount - 1, c: columnCount - 1 });
      const workbook = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(workbook, sheet, `Sheet ${book}`);
      XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([['other']]), 'Other');
      const bytes = new Uint8Array(
        XLSX.write(workbook, { type: 'array', bookType: 'xlsx', bookSST: book % 2 === 0, compression: book % 3 !== 0 }) as ArrayBuffer,
      );

      const theirs = XLSX.read(bytes, { type: 'array', cellNF: true });
      const theirSheet = theirs.Sheets[`Sheet ${book}`] ?? {};
      const expectedRows: string[][] = [];
      const expectedNumbers: number[] = [];
      const writtenRows: string[][] = [];
      for (let r = 0; r < rowCount; r++) {
        const cells = Array.from({ length: columnCount }, (_, c) => expectedText(theirSheet[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined));
        while (cells.length > 0 && cells.at(-1) === '') cells.pop();
        if (cells.length === 0) continue;
        expectedRows.push(cells);
        expectedNumbers.push(r + 1);
        writtenRows.push(generated[r]?.slice(0, cells.length).map((value) => (typeof value === 'string' ? value : '\u0000')) ?? []);
      }

      const ours = await readXlsx(bytes);
      const context = `workbook ${book}`;
      expect(ours.sheet, context).toBe(`Sheet ${book}`);
      expect(openXlsx(bytes).sheets.map((entry) => entry.name), context).toEqual(theirs.SheetNames);
      expect(ours.rowNumbers, context).toEqual(expectedNumbers);
      expect(
        ours.rows.map((row) => row.map((text) => text.replace(/\r\n/g, '\n'))),
        context,
      ).toEqual(expectedRows);
      // Strings exactly as written (SheetJS drops the CR of a CR LF).
      ours.rows.forEach((row, r) =>
        row.forEach((text, c) => {
          const written = writtenRows[r]?.[c];
          if (written !== undefined && written !== '\u0000') expect(text, `${context} ${r},${c}`).toBe(written);
        }),
      );
    }
  });
});
