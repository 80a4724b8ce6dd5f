import { describe, expect, it } from 'vitest';
import type { OutcomeItem } from './import-job';
import { matchItems, RESULT_FLAG, resultFlags, trackingToFollow } from './result-item';

const item = (change: Partial<OutcomeItem> = {}): OutcomeItem => ({
  rowNumber: 2,
  creationStatus: 'created',
  trackingStatus: 'succeeded',
  shipmentId: 's1',
  reference: null,
  problems: [],
  ...change,
});

describe('one classification of a result item', () => {
  it('counts a tracking failure only for a row that created or updated a shipment', () => {
    expect(resultFlags(item({ trackingStatus: 'failed' }))).toBe(RESULT_FLAG.created | RESULT_FLAG['tracking-failed']);
    expect(resultFlags(item({ creationStatus: 'updated', trackingStatus: 'failed' }))).toBe(RESULT_FLAG.updated | RESULT_FLAG['tracking-failed']);
    // The sandbox marks both failed when nothing was created: it is failed, once.
    expect(resultFlags(item({ creationStatus: 'failed', trackingStatus: 'failed', shipmentId: null }))).toBe(RESULT_FLAG.failed);
    expect(resultFlags(null)).toBe(RESULT_FLAG.failed);
    expect(resultFlags(item({ problems: [{ level: 'warning', code: 'x', column: null, message: 'w' }] }))).toBe(RESULT_FLAG.created | RESULT_FLAG.warnings);
  });

  it('follows up a shipment still tracking, or failed with no reason yet, never a row that created nothing', () => {
    expect(trackingToFollow(item({ trackingStatus: 'processing' }))).toBe(true);
    expect(trackingToFollow(item({ trackingStatus: 'failed' }))).toBe(true);
    expect(trackingToFollow(item({ trackingStatus: 'failed', trackingFailureReason: 'carrier down' }))).toBe(false);
    expect(trackingToFollow(item({ creationStatus: 'failed', trackingStatus: 'failed' }))).toBe(false);
    expect(trackingToFollow(item({ trackingStatus: 'succeeded' }))).toBe(false);
  });

  it('puts items by row_number, else by position, and counts the ones that match no row or a row twice', () => {
    const { slots, unmatched } = matchItems([{ row_number: 2 }, { row_number: 2 }, { row_number: 9 }, {}], 4);
    expect(slots).toEqual([null, { row_number: 2 }, null, {}]);
    expect(unmatched).toBe(2);
  });
});
