/**
 * The reader's tests and the property test against SheetJS once more, on the platform's native
 * inflater (DecompressionStream), which browsers use. In Node the reader prefers fflate, so the
 * other test files cover that path; here every workbook must read the same natively.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultInflate, forceInflate } from './zip-archive';
import './read-xlsx.test';
import './read-xlsx.property.test';

beforeAll(() => {
  forceInflate('native');
});

afterAll(() => {
  forceInflate(undefined);
});

describe('forced onto the native inflater', () => {
  it('reads with DecompressionStream', () => {
    expect(defaultInflate()).toBe('native');
  });
});
