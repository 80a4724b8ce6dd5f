import { describe, expect, it } from 'vitest';
import { plural } from './plural';

describe('plural', () => {
  it('says one row, and rows for every other count', () => {
    expect(plural(1, 'row')).toBe('1 row');
    expect(plural(0, 'row')).toBe('0 rows');
    expect(plural(1234, 'data row')).toBe('1,234 data rows');
    expect(plural(2, 'entry', 'entries')).toBe('2 entries');
  });
});
