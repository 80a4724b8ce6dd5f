import { describe, expect, it } from 'vitest';
import type { ImportJob } from '../../jobs/import-job';
import { explainServiceRowNumbers, jobNumbering } from './row-numbering';

const job = (id: string, source: ImportJob['source']) => ({ id, source });

describe('jobNumbering', () => {
  it('names a text file’s rows by line and a workbook’s by row, as the importer does', () => {
    expect(jobNumbering(job('a', { kind: 'file', fileName: 'march.csv', size: 1, contentHash: null }), [])).toBe('Line');
    expect(jobNumbering(job('a', { kind: 'file', fileName: 'march.txt', size: 1, contentHash: null }), [])).toBe('Line');
    expect(jobNumbering(job('a', { kind: 'file', fileName: 'march.xlsx', size: 1, contentHash: null }), [])).toBe('Row');
    expect(jobNumbering(job('a', { kind: 'file', fileName: 'export', size: 1, contentHash: null, sheet: 'Sheet1' }), [])).toBe('Row');
    expect(jobNumbering(job('a', { kind: 'quick-add' }), [])).toBe('Row');
  });

  it('gives a retry (of a retry) the numbering of the file its rows came from', () => {
    const original = job('a', { kind: 'file', fileName: 'march.csv', size: 1, contentHash: null });
    const retry = job('b', { kind: 'retry', jobId: 'a', label: 'retry of march.csv' });
    const again = job('c', { kind: 'retry', jobId: 'b', label: 'retry of retry of march.csv' });
    expect(jobNumbering(again, [original, retry, again])).toBe('Line');
    // The original is gone: the numbers are still the file's, but what they count is unknown.
    expect(jobNumbering(again, [again, retry])).toBe('Row');
  });
});

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
