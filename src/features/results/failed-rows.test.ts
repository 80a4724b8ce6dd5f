import { describe, expect, it } from 'vitest';
import { downloadFileName, jobFileStem } from './failed-rows';

describe('file names', () => {
  it('names the file after the job', () => {
    expect(downloadFileName({ kind: 'file', fileName: 'March shipments.xlsx', size: 1, contentHash: null }, 'failed', 'csv')).toBe('March-shipments-failed-rows.csv');
    expect(downloadFileName({ kind: 'quick-add' }, 'warnings', 'xlsx')).toBe('quick-add-rows-with-warnings.xlsx');
    expect(jobFileStem({ kind: 'retry', jobId: 'j', label: 'retry of a/b.csv' })).toBe('retry-of-a-b.csv');
  });
});
