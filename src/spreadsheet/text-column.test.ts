import { describe, expect, it } from 'vitest';
import { TextColumn } from './text-column';

describe('TextColumn', () => {
  it('gives back every value as set, set again, empty or past Latin-1, through growth', () => {
    const values = ['REF-1', '', 'Straße 12', '→ Rotterdam', '😀 emoji', 'x'.repeat(70), 'é'.repeat(40), 'PO-2024-000123-ABC'];
    const column = new TextColumn(3000);
    const expected: string[] = [];
    for (let row = 0; row < 3000; row++) {
      const value = `${values[row % values.length]}${row % 5 === 0 ? row : ''}`;
      expected[row] = value;
      column.set(row, value);
    }
    for (let row = 0; row < 3000; row += 7) {
      const value = row % 2 ? '' : `again ${row} →`;
      expected[row] = value;
      column.set(row, value);
    }
    for (let row = 0; row < 3000; row++) expect(column.get(row)).toBe(expected[row]);
    // A row set ahead of its turn, then in order: the later value holds.
    const ahead = new TextColumn(3);
    ahead.set(2, 'early');
    ahead.set(0, 'a');
    ahead.set(1, 'b');
    ahead.set(2, 'in order');
    expect([0, 1, 2].map((row) => ahead.get(row))).toEqual(['a', 'b', 'in order']);
    // A lone surrogate (an XLSX escape can make one) comes back as it was, not as U+FFFD.
    const lone = new TextColumn(2);
    lone.set(0, 'REF-\uD83D');
    lone.set(1, 'REF-\uD83D\uDE00');
    expect([lone.get(0), lone.get(1)]).toEqual(['REF-\uD83D', 'REF-\uD83D\uDE00']);
    // A row never set, or out of range, reads as empty.
    expect(new TextColumn(2).get(1)).toBe('');
    column.set(5000, 'nowhere');
    expect(column.get(5000)).toBe('');
  });
  it('keeps a million rows whose first values are long: the first rows say little of the rest', () => {
    // Two long values first (fewer than the rows it samples), and 1,200 (whose average times every row would pass a gigabyte).
    for (const longRows of [2, 1_200]) {
      const column = new TextColumn(1_000_000);
      const long = 'R'.repeat(2_000);
      for (let row = 0; row < longRows; row++) column.set(row, long);
      for (let row = longRows; row < 999_999; row += 1) column.set(row, '');
      column.set(999_999, 'REF-LAST');
      expect([column.get(0), column.get(longRows - 1), column.get(500_000), column.get(999_999)], `${longRows} long rows first`).toEqual([long, long, '', 'REF-LAST']);
    }
  });
});
