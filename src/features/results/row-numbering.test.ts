import { describe, expect, it } from 'vitest';
import type { ImportJob } from '../../jobs/import-job';
import { jobNumbering } from './row-numbering';

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
