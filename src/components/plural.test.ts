import { describe, expect, it } from 'vitest';
import { formatCount, plural } from './plural';

describe('plural', () => {
  it('says one row, and rows for every other count', () => {
    expect(plural(1, 'row')).toBe('1 row');
    expect(plural(0, 'row')).toBe('0 rows');
    expect(plural(1234, 'data row')).toBe('1,234 data rows');
    expect(plural(2, 'entry', 'entries')).toBe('2 entries');
  });
});

describe('formatCount', () => {
  it('writes counts as toLocaleString("en") did, thousands separated', () => {
    for (const value of [0, 7, 999, 1000, 100_000, 1_234_567, -4200, 2.5]) expect(formatCount(value)).toBe(value.toLocaleString('en'));
    expect(formatCount(100_000)).toBe('100,000');
  });
});
