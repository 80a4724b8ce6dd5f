import { describe, expect, it } from 'vitest';
import { decodeText } from './decode-text';
import { bytesSource, readCsvFile } from './file-rows';
import type { ByteSource } from './file-rows';
import { CsvRowsOut, CsvScan, csvGrammar, detectDelimiter, readCsv, scanCsvRows } from './read-csv';
import { SpreadsheetReadError } from './read-error';
import { seededRandom } from './seeded-random';
import { outcome } from './test-support';
import { DEFAULT_TABLE_LIMITS, checkRowCount } from './table-limits';
import type { TableLimits } from './table-limits';



const SMALL_LIMITS: TableLimits = { ...DEFAULT_TABLE_LIMITS, maxRows: 12, maxColumns: 6, maxCellLength: 8 };
const BLOCK_BYTES = [7, 64, 1000];
const encode = (text: string) => new TextEncoder().encode(text);

/** What readTable gives today for a CSV's bytes: readCsv on decodeText's text, then its checks. */
function readInMemory(bytes: Uint8Array, limits: TableLimits, delimiter?: string): unknown {
  return outcome(() => {
    const read = readCsv(decodeText(bytes).text, limits, delimiter);
    if (read.rows.length === 0) throw new SpreadsheetReadError('invalid_file', 'The file has no rows, only empty lines.');
    checkRowCount(read.rows.length, limits);
    return read;
  });
}

/** Whether readCsv's one-pass reader gives the text up to papaparse (then readCsvFile must give null). */
function leftToPapaparse(bytes: Uint8Array, limits: TableLimits, delimiter?: string): boolean {
  const { text } = decodeText(bytes);
  const grammar = csvGrammar(text, delimiter ?? detectDelimiter(text));
  return grammar === null || scanCsvRows(text, 0, false, grammar, limits, new CsvScan(), new CsvRowsOut({})) === -1;
}

/**
 * Reads the bytes both ways and holds them equal: every row, random windows of rows (the file's
 * blocks read back in any order), line numbers, delimiter and errors; null exactly when readCsv
 * leaves the text to papaparse.
 */
function expectSameRead(bytes: Uint8Array, limits: TableLimits, delimiter: string | undefined, blockBytes: number, next: () => number): void {
  const context = JSON.stringify({ text: new TextDecoder().decode(bytes), delimiter, blockBytes, limits: limits === SMALL_LIMITS ? 'small' : 'default' });
  const expected = readInMemory(bytes, limits, delimiter);
  let read: ReturnType<typeof readCsvFile> = null;
  const actual = outcome(() => {
    read = readCsvFile(bytesSource(bytes), limits, { delimiter, blockBytes });
    return read && { rows: read.rows.slice(0, read.rows.length), rowNumbers: read.rowNumbers.slice(), delimiter: read.delimiter };
  });
  expect(actual, context).toEqual(leftToPapaparse(bytes, limits, delimiter) ? null : expected);
  const { rows, rowNumbers } = (read ?? {}) as Partial<NonNullable<ReturnType<typeof readCsvFile>>>;
  if (!rows || !rowNumbers) return;
  const { rows: all, rowNumbers: lines } = expected as { rows: string[][]; rowNumbers: number[] };
  for (let window = 0; window < 4; window++) {
    const a = Math.floor(next() * (all.length + 4)) - 2;
    const b = a + Math.floor(next() * 6);
    expect(rows.slice(a, b), `${context} slice(${a}, ${b})`).toEqual(all.slice(a, b));
    expect(rowNumbers.at(a), `${context} line at ${a}`).toBe(lines.at(a));
  }
}

const PIECES = ['a', 'b', ',', ';', '"', '""', '\r', '\n', '\r\n', ' ', '\u00a0', 'é', 'x y', '', '|', '\t', '→', '😀', '\ufeff', 'long cell text'];

/** Cells of well-formed CSV, most of what readCsvFile must read rather than leave to papaparse. */
function randomCell(next: () => number, delimiter: string, lineBreak: string): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  switch (Math.floor(next() * 8)) {
    case 0:
      return '';
    case 1:
      return pick([' ', '\t', '\u00a0', '  ']);
    case 2:
      return `"${pick(['a', 'Shipment 1 → Rotterdam', 'é', '😀'])}${delimiter}${pick(['b', '""x""', lineBreak, '\n', ''])}"`;
    case 3:
      return `"${pick(['', ' ', '""', 'q""uote', `line${lineBreak}break${lineBreak}`])}"`;
    case 4:
      return pick(['MSKU1234565', 'Göteborg → Valencia, lot 12 ', 'naïve café 😀😀', 'a'.repeat(20)]);
    default:
      return pick(['x', 'REF-1', 'MAEU', 'é', '→', '1', 'urgent']);
  }
}

function randomCsv(next: () => number): string {
  const delimiter = [',', ';', '\t', '|'][Math.floor(next() * 4)] ?? ',';
  const lineBreak = ['\r\n', '\n', '\r'][Math.floor(next() * 3)] ?? '\n';
  const rows: string[] = [];
  const rowCount = Math.floor(next() * 16);
  for (let r = 0; r < rowCount; r++) {
    if (next() < 0.1) {
      rows.push(next() < 0.5 ? '' : ' \t');
      continue;
    }
    const cells: string[] = [];
    const columns = 1 + Math.floor(next() * (next() < 0.1 ? 9 : 5));
    for (let c = 0; c < columns; c++) cells.push(randomCell(next, delimiter, lineBreak));
    rows.push(cells.join(delimiter));
  }
  const text = rows.join(lineBreak) + (next() < 0.5 ? lineBreak : '');
  return (next() < 0.1 ? '\ufeff' : '') + text;
}

/** A source that counts its reads. */
function countingSource(bytes: Uint8Array): ByteSource & { reads: number } {
  const source = {
    size: bytes.length,
    reads: 0,
    read(start: number, end: number) {
      source.reads++;
      return bytes.subarray(start, end);
    },
  };
  return source;
}

describe('readCsvFile', () => {
  it('reads random text exactly as readCsv, or gives it up when readCsv leaves it to papaparse', () => {
    const next = seededRandom(2025);
    for (let run = 0; run < 800; run++) {
      let text = '';
      const pieces = Math.floor(next() * (run % 2 ? 40 : 120));
      for (let i = 0; i < pieces; i++) text += PIECES[Math.floor(next() * PIECES.length)] ?? '';
      const bytes = encode(text);
      for (const limits of [DEFAULT_TABLE_LIMITS, SMALL_LIMITS]) {
        for (const delimiter of [undefined, ',', ';']) {
          for (const blockBytes of BLOCK_BYTES) expectSameRead(bytes, limits, delimiter, blockBytes, next);
        }
      }
    }
  });

  it('reads well-formed CSV exactly as readCsv: quoted breaks and quotes, blank rows, long cells, wide rows, BOM', () => {
    const next = seededRandom(7);
    let read = 0;
    for (let run = 0; run < 1500; run++) {
      const bytes = encode(randomCsv(next));
      for (const limits of [DEFAULT_TABLE_LIMITS, SMALL_LIMITS]) {
        for (const blockBytes of BLOCK_BYTES) expectSameRead(bytes, limits, undefined, blockBytes, next);
      }
      if (outcome(() => readCsvFile(bytesSource(bytes), DEFAULT_TABLE_LIMITS, { blockBytes: 7 })) !== null) read++;
    }
    // Well-formed text is read (or refused with readCsv's sentence), not given up.
    expect(read).toBeGreaterThan(1400);
  });

  it('cuts slices between characters, never inside one', () => {
    for (const text of ['→→→→→\n→,😀😀😀\n', 'é😀→a\r\nb,😀\r\n', '😀'.repeat(50)]) {
      for (let blockBytes = 4; blockBytes < 20; blockBytes++) {
        const read = readCsvFile(bytesSource(encode(text)), DEFAULT_TABLE_LIMITS, { blockBytes });
        expect(read?.rows.slice(0, 10), `${text} ${blockBytes}`).toEqual(readCsv(text, DEFAULT_TABLE_LIMITS).rows);
      }
    }
  });

  it('gives up what it cannot read as readCsv would: not UTF-8, UTF-16, another encoding, irregular quoting', () => {
    const read = (bytes: Uint8Array, options: { delimiter?: string; encoding?: string } = {}) =>
      readCsvFile(bytesSource(bytes), DEFAULT_TABLE_LIMITS, { ...options, blockBytes: 16 });
    const latin1 = new Uint8Array([...encode('a,b\r\nvalid,row\r\ncaf'), 0xe9, ...encode(',x\r\n')]);
    expect(read(latin1)).toBeNull();
    expect(read(new Uint8Array([...encode('a,b\n→'), 0xe2, 0x86]))).toBeNull();
    expect(read(new Uint8Array([0xef, 0xbb, 0xbf, ...encode('a,b\n'), 0xff]))).toBeNull();
    expect(read(new Uint8Array([0xff, 0xfe, 0x61, 0x00, 0x2c, 0x00, 0x62, 0x00]))).toBeNull();
    expect(read(new Uint8Array([0xfe, 0xff, 0x00, 0x61, 0x00, 0x2c, 0x00, 0x62]))).toBeNull();
    expect(read(encode('a,b\n1,2\n'), { encoding: 'windows-1252' })).toBeNull();
    expect(read(encode('a,b\n1,2\n'), { encoding: 'no-such-encoding' })).toBeNull();
    expect(read(encode('a,b\n1,"2\n3,4\n'))).toBeNull();
    expect(read(encode('a,b\n"1" ,2\n'))).toBeNull();
    expect(read(encode('a,b\n1,2\n'), { delimiter: '"' })).toBeNull();
    expect(read(encode('a;;b\n1;;2\n'), { delimiter: ';;' })).toBeNull();
    // A real U+FFFD is text; an encoding override naming UTF-8 is UTF-8.
    expect(read(encode('a,\uFFFD\n'))?.rows.slice(0, 1)).toEqual([['a', '\uFFFD']]);
    expect(read(encode('\ufeffa,b\n1,2\n'), { encoding: 'utf8' })?.rows.slice(0, 2)).toEqual([['a', 'b'], ['1', '2']]);
  });

  it('throws readCsv’s and readTable’s errors: too many columns at its line, too many rows, no rows', () => {
    const limits = { ...DEFAULT_TABLE_LIMITS, maxColumns: 2, maxRows: 2 };
    const read = (text: string) => outcome(() => readCsvFile(bytesSource(encode(text)), limits, { blockBytes: 7 }));
    expect(read('a,b\n"1\n2",3\n\n4,5,6\n7,8,9,10\n')).toEqual({ error: 'SpreadsheetReadError: The file has 3 columns; the limit is 2.', line: 5 });
    expect(read('a,b\n1,2\n3,4\n5,6\n')).toEqual({ error: 'SpreadsheetReadError: The file has 3 rows; the limit is 2.', line: undefined });
    for (const empty of ['', '\r\n\r\n', ' \n \t\n', '\ufeff']) {
      expect(read(empty)).toEqual({ error: 'SpreadsheetReadError: The file has no rows, only empty lines.', line: undefined });
    }
    // An unterminated quote after a broken limit still leaves the file to papaparse, which reports the quote.
    expect(read('a,b,c\n1,"2\n')).toBeNull();
  });

  it('reads each block once when rows are read in order or a window scrolls to and fro', () => {
    const lines = Array.from({ length: 500 }, (_, i) => `MSKU${1000000 + i},container,"Shipment ${i} → Rotterdam, lot ${i % 97}",urgent`);
    const bytes = encode(lines.join('\r\n'));
    const source = countingSource(bytes);
    const read = readCsvFile(source, DEFAULT_TABLE_LIMITS, { blockBytes: 1024, windowBytes: 1 });
    const rows = read?.rows;
    if (!rows) throw new Error('not read');
    const expected = readCsv(lines.join('\r\n'), DEFAULT_TABLE_LIMITS).rows;
    source.reads = 0;
    for (let row = 0; row < rows.length; row += 7) expect(rows.slice(row, row + 7)).toEqual(expected.slice(row, row + 7));
    const blocks = source.reads;
    expect(blocks).toBeGreaterThan(30);
    expect(blocks).toBeLessThan(bytes.length / 1024 + 5);
    // A window scrolling to and fro over 7 rows (within two blocks of ~13): they stay decoded.
    const scroll = () => {
      for (let step = 0; step < 20; step++) rows.slice(240 + (step % 3), 244 + (step % 3));
    };
    scroll();
    const settled = source.reads;
    scroll();
    expect(source.reads).toBe(settled);
  });

  it('asks the file once per window of bytes, not once per block, when rows are read in order', () => {
    const lines = Array.from({ length: 500 }, (_, i) => `MSKU${1000000 + i},container,"Shipment ${i} → Rotterdam, lot ${i % 97}",urgent`);
    const bytes = encode(lines.join('\r\n'));
    const source = countingSource(bytes);
    const rows = readCsvFile(source, DEFAULT_TABLE_LIMITS, { blockBytes: 1024, windowBytes: 8192 })?.rows;
    if (!rows) throw new Error('not read');
    // The head (the first MiB of text, here the whole file) is read to choose the delimiter, then again as its blocks are cut and hashed.
    expect(source.reads).toBeLessThan((2 * bytes.length) / 8192 + 3);
    source.reads = 0;
    for (let row = 0; row < rows.length; row += 7) rows.slice(row, row + 7);
    expect(source.reads).toBeLessThan(bytes.length / 8192 + 3);
  });

  it('reads back every row as indexed when blocks straddle windows (joined from two reads)', () => {
    // Past the head (the first MiB, read before any block is cut): there the index's reads run ahead of its blocks.
    const lines = Array.from({ length: 16_000 }, (_, i) => `MSKU${1000000 + i},container,"Shipment ${(i * 7919) % 1013} → Rotterdam",${'x'.repeat(i % 53)}`);
    const text = lines.join('\r\n');
    const expected = readCsv(text, DEFAULT_TABLE_LIMITS).rows;
    for (const windowBytes of [1, 3001, 8192]) {
      const rows = readCsvFile(bytesSource(encode(text)), DEFAULT_TABLE_LIMITS, { blockBytes: 1000, windowBytes })?.rows;
      // Row by row from the last (each block read again, its hash checked), then in order.
      expect(Array.from({ length: expected.length }, (_, i) => rows?.slice(expected.length - 1 - i, expected.length - i)[0]).reverse(), `windows of ${windowBytes}`).toEqual(expected);
      expect(rows?.slice(0, expected.length), `windows of ${windowBytes}`).toEqual(expected);
    }
  });

  it('reads a row longer than many slices without reading the file again for each', () => {
    const text = `a,b\n"${'x→'.repeat(50_000)}",c\nd,e\n`;
    const source = countingSource(encode(text));
    const read = readCsvFile(source, DEFAULT_TABLE_LIMITS, { blockBytes: 256, windowBytes: 256 });
    expect(read?.rows.slice(0, 3)).toEqual(readCsv(text, DEFAULT_TABLE_LIMITS).rows);
    expect(source.reads).toBeLessThan(1500);
  });

  it('reads rows after a block begun by a row of more than 65,536 characters (where rows start no longer fits 16 bits)', () => {
    const lines = ['a,b', `"${'x'.repeat(70_000)}",c`, ...Array.from({ length: 3000 }, (_, i) => `row ${i},${'y'.repeat(i % 40)}`)];
    const text = lines.join('\n');
    const rows = readCsvFile(bytesSource(encode(text)), DEFAULT_TABLE_LIMITS)?.rows;
    // Row by row: a read of many rows starts only the first where the index says.
    expect(Array.from({ length: lines.length }, (_, row) => rows?.slice(row, row + 1)[0])).toEqual(readCsv(text, DEFAULT_TABLE_LIMITS).rows);
  });

  it('reports progress by bytes read and stops when aborted', () => {
    const bytes = encode('a,b\n'.repeat(2000));
    const fractions: number[] = [];
    readCsvFile(bytesSource(bytes), DEFAULT_TABLE_LIMITS, { blockBytes: 1024, onProgress: (fraction) => fractions.push(fraction) });
    expect(fractions.length).toBeGreaterThan(5);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(fractions.at(-1)).toBe(1);
    const controller = new AbortController();
    controller.abort();
    expect(() => readCsvFile(bytesSource(bytes), DEFAULT_TABLE_LIMITS, { signal: controller.signal })).toThrow(/abort/i);
  });

  it('refuses, in a sentence, to read back rows from a file whose bytes changed since they were indexed', () => {
    const lines = Array.from({ length: 500 }, (_, i) => `MSKU${1000000 + i},container,REF-${i},urgent`);
    const bytes = encode(lines.join('\r\n'));
    const rows = readCsvFile(bytesSource(bytes), DEFAULT_TABLE_LIMITS, { blockBytes: 1024, windowBytes: 2048 })?.rows;
    if (!rows) throw new Error('not read');
    expect(rows.slice(300, 301)).toEqual([['MSKU1000300', 'container', 'REF-300', 'urgent']]);
    // One digit of a row far from the rows read last: the same length, another value.
    const at = new TextDecoder().decode(bytes).indexOf('REF-40') + 5;
    bytes[at] = (bytes[at] ?? 0) === 0x31 ? 0x32 : 0x31;
    expect(() => rows.slice(40, 41)).toThrow('The file changed or moved on your disk since it was dropped; drop it again.');
  });
});
