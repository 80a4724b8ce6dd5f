import { describe, expect, it } from 'vitest';
import type { BatchOutcome, BatchProgress, OutcomeItem } from '../import-job';
import { applyFollowUp, dueFollowUps, followUpQuery, FOLLOW_UP_SPACING_CAP_MS, FOLLOW_UP_SPACING_MS, nextFollowUpAt, progressAfterFollowUp, recordShipmentPage, startFollowUps } from './tracking-follow-up';

const item = (rowNumber: number, fields: Partial<OutcomeItem>): OutcomeItem => ({
  rowNumber, creationStatus: 'created', trackingStatus: 'succeeded', shipmentId: null, reference: null, problems: [], ...fields,
});

const outcome = (n: number, items: OutcomeItem[]): BatchOutcome => ({ jobId: 'j', batchId: `batch-${n}`, chunkId: n, status: 'completed', failureReason: null, items });

function outcomes() {
  return [
    outcome(0, [item(1, { shipmentId: 's1', trackingStatus: 'processing' }), item(2, { shipmentId: 's2' }), item(3, { shipmentId: 's3', trackingStatus: 'processing' })]),
    outcome(1, [item(4, { shipmentId: 's4' })]),
    outcome(2, [item(5, { shipmentId: null, creationStatus: 'failed', trackingStatus: 'processing' })]),
  ];
}

describe('tracking follow-up', () => {
  it('follows the shipments whose tracking was still processing when their batch finished', () => {
    const followUps = startFollowUps(outcomes());
    expect(followUps).toEqual([{ batchId: 'batch-0', pending: ['s1', 's3'], failures: {}, checks: 0, lastCheckAt: null, nextPage: 1 }]);
    expect(dueFollowUps(followUps, 0)).toHaveLength(1);
    expect(followUpQuery(followUps[0]!)).toEqual({ batch_id: 'batch-0', page: 1, page_size: 100 });
  });

  it('reads pages until nothing is pending, keeps each failure’s reason, and waits at least a minute before the next check', () => {
    let [followUp] = startFollowUps(outcomes());
    const first = recordShipmentPage(followUp!, { shipments: [{ id: 's1', last_process_status: 'track_failed', last_process_failure_reason: 'not_found' }], lastPage: false }, 1_000);
    expect(first.readNextPage).toBe(true);
    expect(followUpQuery(first.followUp).page).toBe(2);
    const second = recordShipmentPage(first.followUp, { shipments: [{ id: 's3', last_process_status: 'processing' }], lastPage: true }, 2_000);
    expect(second.readNextPage).toBe(false);
    followUp = second.followUp;
    expect(followUp).toMatchObject({ pending: ['s3'], failures: { s1: 'not_found' }, checks: 1, lastCheckAt: 2_000, nextPage: 1 });
    expect(dueFollowUps([followUp], 2_000 + FOLLOW_UP_SPACING_MS - 1)).toEqual([]);
    expect(nextFollowUpAt([followUp])).toBe(2_000 + FOLLOW_UP_SPACING_MS);
    expect(dueFollowUps([followUp], 2_000 + FOLLOW_UP_SPACING_MS)).toEqual([followUp]);

    // A fruitless check doubles the wait.
    const third = recordShipmentPage(followUp, { shipments: [{ id: 's3', last_process_status: 'processing' }], lastPage: true }, 100_000);
    expect(nextFollowUpAt([third.followUp])).toBe(100_000 + 2 * FOLLOW_UP_SPACING_MS);

    const done = recordShipmentPage(third.followUp, { shipments: [{ id: 's3', last_process_status: 'track_succeeded' }], lastPage: false }, 300_000);
    expect(done.readNextPage).toBe(false);
    expect(done.followUp.pending).toEqual([]);
    expect(nextFollowUpAt([done.followUp])).toBeNull();
    expect(dueFollowUps([done.followUp], Number.MAX_SAFE_INTEGER)).toEqual([]);
  });

  it('never waits more than the cap between checks, and says so when a failure has no reason', () => {
    const [start] = startFollowUps(outcomes());
    const late = { ...start!, checks: 30, lastCheckAt: 0 };
    expect(nextFollowUpAt([late])).toBe(FOLLOW_UP_SPACING_CAP_MS);
    const { followUp } = recordShipmentPage(late, { shipments: [{ id: 's1', last_process_status: 'track_failed', last_process_failure_reason: null }], lastPage: true }, 1);
    expect(followUp.failures).toEqual({ s1: 'the service gave none' });
  });

  it('writes what a check found into the outcome: succeeded, or failed with its reason', () => {
    const [start] = startFollowUps(outcomes());
    const { followUp } = recordShipmentPage(start!, { shipments: [{ id: 's1', last_process_status: 'track_failed', last_process_failure_reason: 'not_found' }], lastPage: true }, 1);
    const updated = applyFollowUp(outcomes()[0]!, followUp);
    expect(updated?.items.map((i) => [i?.shipmentId, i?.trackingStatus, i?.trackingFailureReason])).toEqual([
      ['s1', 'failed', 'not_found'],
      ['s2', 'succeeded', undefined],
      ['s3', 'processing', undefined],
    ]);
    expect(applyFollowUp(outcomes()[0]!, start!)).toBeNull();
  });

  it('also follows a shipment whose tracking had failed when the batch finished, for its reason, and writes only the reason', () => {
    const finished = outcome(0, [
      item(2, { shipmentId: 's1', trackingStatus: 'failed' }),
      item(3, { shipmentId: 's2' }),
      // A row that created nothing has no tracking to fail, and one whose reason is known needs no check.
      item(4, { shipmentId: null, creationStatus: 'failed', trackingStatus: 'failed' }),
      item(5, { shipmentId: 's4', trackingStatus: 'failed', trackingFailureReason: 'not_found' }),
    ]);
    const [start] = startFollowUps([finished]);
    expect(start?.pending).toEqual(['s1']);
    const { followUp } = recordShipmentPage(start!, { shipments: [{ id: 's1', last_process_status: 'track_failed', last_process_failure_reason: 'not_found' }], lastPage: true }, 1);
    expect(applyFollowUp(finished, followUp)?.items.map((i) => [i?.trackingStatus, i?.trackingFailureReason])).toEqual([
      ['failed', 'not_found'],
      ['succeeded', undefined],
      ['failed', undefined],
      ['failed', 'not_found'],
    ]);
    // Seen tracked since (the shipment was updated): the batch's answer stands, and no reason is made up.
    const tracked = recordShipmentPage(start!, { shipments: [{ id: 's1', last_process_status: 'track_succeeded' }], lastPage: true }, 1);
    expect(tracked.followUp.pending).toEqual([]);
    expect(applyFollowUp(finished, tracked.followUp)).toBeNull();
  });
});

describe('progressAfterFollowUp', () => {
  const progress = (fields: Partial<BatchProgress>): BatchProgress => ({
    batchId: 'batch-0', chunkId: 0, status: 'completed', total: 3, completed: 3,
    counts: { created: 3, updated: 0, failed: 0, withWarnings: 1, trackingFailed: 0 },
    problems: [], problemCount: 0, acceptedAt: 0, lastPolledAt: 1, lastMovedAt: 1, finishedAt: 1, failureReason: null, unmatchedItems: 0,
    ...fields,
  });

  it('gives a listed tracking failure its reason, and lists one the check found, in row order, counted', () => {
    const before = progress({
      counts: { created: 3, updated: 0, failed: 0, withWarnings: 1, trackingFailed: 1 },
      problems: [
        { rowNumber: 2, level: 'tracking-failed', shipmentId: 's1', reason: null },
        { rowNumber: 4, level: 'warning', column: 'assignees', message: 'not a member' },
      ],
      problemCount: 2,
    });
    const after = outcome(0, [
      item(2, { shipmentId: 's1', trackingStatus: 'failed', trackingFailureReason: 'not_found' }),
      item(3, { shipmentId: 's2', trackingStatus: 'failed', trackingFailureReason: 'carrier_unreachable' }),
      item(4, { shipmentId: 's3' }),
    ]);
    const next = progressAfterFollowUp(before, after);
    expect(next.problems).toEqual([
      { rowNumber: 2, level: 'tracking-failed', shipmentId: 's1', reason: 'not_found' },
      { rowNumber: 3, level: 'tracking-failed', shipmentId: 's2', reason: 'carrier_unreachable' },
      { rowNumber: 4, level: 'warning', column: 'assignees', message: 'not a member' },
    ]);
    expect(next.problemCount).toBe(3);
    expect(next.counts.trackingFailed).toBe(2);
  });

  it('adds nothing to a list already cut short, but counts what it found', () => {
    const full = Array.from({ length: 200 }, (_, i) => ({ rowNumber: i + 2, level: 'warning' as const, column: 'assignees', message: 'not a member' }));
    const next = progressAfterFollowUp(progress({ problems: full, problemCount: 450 }), outcome(0, [item(9, { shipmentId: 's9', trackingStatus: 'failed', trackingFailureReason: 'not_found' })]));
    expect(next.problems).toEqual(full);
    expect(next.problemCount).toBe(451);
  });
});
