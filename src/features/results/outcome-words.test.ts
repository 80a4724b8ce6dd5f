import { describe, expect, it } from 'vitest';
import { creationWords, trackingWords } from './outcome-words';
import type { ResultRowView as ResultRow } from '../../jobs/thread/results-protocol';
import { item } from '../../jobs/thread/test-results';

const row = (overrides: Parameters<typeof item>[1] | null): ResultRow => ({
  rowNumber: 2,
  batchId: 'b',
  batchRow: 1,
  values: [],
  item: overrides === null ? null : item(2, overrides),
});

describe('a result row in words', () => {
  it('says what the service did with the row and its tracking', () => {
    expect(creationWords(row({}))).toEqual({ text: 'Created', tone: 'success' });
    expect(trackingWords(row({ trackingStatus: 'failed' }))).toEqual({ text: 'Tracking failed', tone: 'danger' });
    expect(trackingWords(row({ trackingStatus: 'processing' })).text).toBe('Tracking…');
    expect(creationWords(row(null))).toEqual({ text: 'No result', tone: 'danger' });
  });

  it('does not call a row that created nothing "tracking failed", as the counts do not', () => {
    const failed = row({ creationStatus: 'failed', trackingStatus: 'failed', shipmentId: null });
    expect(creationWords(failed).text).toBe('Failed');
    expect(trackingWords(failed)).toEqual({ text: 'Not tracked', tone: 'neutral' });
  });
});
