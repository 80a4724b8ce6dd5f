import { describe, expect, it } from 'vitest';
import { readCsv, readCsvWithPapaparse } from './read-csv';
import { DEFAULT_TABLE_LIMITS } from './table-limits';
import { outcome } from './test-support';
import type { TableLimits } from './table-limits';


/** A deterministic generator, so a failure names a text that can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const PIECES = ['a', 'b', ',', ';', '"', '""', '\r', '\n', '\r\n', ' ', '\u00a0', 'é', 'x y', '', '|', '\t'];
const SMALL_LIMITS: TableLimits = { ...DEFAULT_TABLE_LIMITS, maxColumns: 6, maxCellLength: 8 };

describe('readCsv', () => {
  it('reads regular text in one pass exactly as papaparse does, line numbers and limits included', () => {
    const next = random(2024);
    for (let run = 0; run < 3000; run++) {
      let text = '';
      const pieces = Math.floor(next() * (run % 2 ? 40 : 120));
      for (let i = 0; i < pieces; i++) text += PIECES[Math.floor(next() * PIECES.length)] ?? '';
      for (const limits of [DEFAULT_TABLE_LIMITS, SMALL_LIMITS]) {
        for (const delimiter of [',', ';', '\t', '|']) {
          expect(outcome(() => readCsv(text, limits, delimiter)), JSON.stringify({ text, delimiter, limits })).toEqual(
            outcome(() => readCsvWithPapaparse(text, limits, delimiter)),
          );
        }
      }
    }
  });

  it('counts a bare line feed inside a cell of a CRLF file as a line, as before', () => {
    const text = 'a,"x\ny"\r\nb,c\nd\r\ne,f\r\n';
    expect(readCsv(text, DEFAULT_TABLE_LIMITS, ',')).toEqual({ rows: [['a', 'x\ny'], ['b', 'c\nd'], ['e', 'f']], rowNumbers: [1, 3, 5], delimiter: ',' });
  });

  it('leaves irregular quoting and unterminated quotes to papaparse', () => {
    expect(readCsv('"a" ,b\n', DEFAULT_TABLE_LIMITS, ',').rows).toEqual([['a', 'b']]);
    expect(() => readCsv('a,b\n1,"2\n3,4\n', DEFAULT_TABLE_LIMITS, ',')).toThrow('Line 2 has a quote that is never closed.');
  });

  it('reports an unterminated quote before a limit broken earlier in the file', () => {
    expect(() => readCsv('a,b,c\n1,"2\n', { ...DEFAULT_TABLE_LIMITS, maxColumns: 2 }, ',')).toThrow('quote that is never closed');
  });
});
