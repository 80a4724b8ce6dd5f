import { describe, expect, it } from 'vitest';
import { explainServiceRowNumbers, quotedServiceRows } from './row-numbering';

describe('explainServiceRowNumbers', () => {
  const message = 'Row 4 (row_number, counting data rows from 1, the header not counted) holds the sandbox test number MAEU240000500.';

  it('adds the file’s number beside the service’s row_number, from the batch’s row numbers', () => {
    // The batch's file began at line 5002 of the source (its second chunk).
    expect(explainServiceRowNumbers(message, [5002, 5003, 5004, 5005], 'Line')).toBe(
      'Row 4 (row_number, counting data rows from 1, the header not counted; Line 5005 of the file) holds the sandbox test number MAEU240000500.',
    );
  });

  it('leaves a message without the service’s numbers, or with a number past the batch, as it is', () => {
    expect(explainServiceRowNumbers('Row 4 is wrong.', [2, 3, 4, 5], 'Line')).toBe('Row 4 is wrong.');
    expect(explainServiceRowNumbers(message, [2, 3], 'Line')).toBe(message);
  });
});

describe('quotedServiceRows', () => {
  const unprocessed = 'The batch failed before this row was processed: Row 4 (row_number, counting data rows from 1, the header not counted) holds the sandbox test number CMDU240000500, which makes the batch fail.';

  it('keeps only the file numbers a message quotes, and explains it as the whole list does', () => {
    const rowNumbers = [5002, 5003, 5004, 5005, 5006];
    const quoted = quotedServiceRows(unprocessed, rowNumbers);
    expect(quoted).toEqual({ 3: 5005 });
    expect(explainServiceRowNumbers(unprocessed, quoted!, 'Row')).toBe(explainServiceRowNumbers(unprocessed, rowNumbers, 'Row'));
    expect(explainServiceRowNumbers(unprocessed, quoted!, 'Row')).toContain('(row_number, counting data rows from 1, the header not counted; Row 5005 of the file)');
  });

  it('is null for a message that quotes no row the batch holds', () => {
    expect(quotedServiceRows('carrier: QQQQ is not a supported carrier.', [2, 3])).toBeNull();
    expect(quotedServiceRows(unprocessed, [2, 3])).toBeNull();
  });
});
