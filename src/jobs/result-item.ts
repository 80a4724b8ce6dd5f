// One result item, classified once for every place that counts or shows it: the poll's digest,
// the tracking follow-up, the results grid's filters, its downloads and fix & retry. Pure.
//
// A row that created nothing has no tracking to fail (the sandbox marks both failed): it counts
// as failed, once, and never under "tracking failed" nor as a shipment to follow up.
import type { ResultItem } from '../contract/batch';
import type { OutcomeItem } from './import-job';

/** A result item as the job keeps it, for the row the file numbers `rowNumber`. */
export function outcomeItemOf(item: ResultItem, rowNumber: number): OutcomeItem {
  return {
    rowNumber,
    creationStatus: item.creation_status,
    trackingStatus: item.tracking_status,
    shipmentId: item.shipment_id ?? null,
    reference: item.reference ?? null,
    problems: [
      ...item.errors.map((p) => ({ level: 'error' as const, code: p.code, column: p.target ?? null, message: p.message })),
      ...item.warnings.map((p) => ({ level: 'warning' as const, code: p.code, column: p.target ?? null, message: p.message })),
    ],
  };
}

/**
 * Result items in the order of the rows sent: slot i is row i, or null. An item lands by its
 * `row_number` where the service gives it (a sandbox extension, 1-based within the file sent),
 * else by its position; one that matches no row, or a row a second time, is unmatched.
 */
export function matchItems<T extends { row_number?: number }>(items: readonly T[], rowCount: number): { slots: (T | null)[]; unmatched: number } {
  const slots: (T | null)[] = new Array<T | null>(rowCount).fill(null);
  let unmatched = 0;
  items.forEach((item, index) => {
    const position = item.row_number !== undefined ? item.row_number - 1 : index;
    if (position < 0 || position >= rowCount || slots[position] !== null) unmatched++;
    else slots[position] = item;
  });
  return { slots, unmatched };
}

/** The filters a result row can be in, as bits. A row with no item is failed. */
export const RESULT_FLAG = {
  failed: 1,
  warnings: 2,
  created: 4,
  updated: 8,
  'tracking-failed': 16,
} as const;

/** The shipment's tracking failed: only a row that created or updated a shipment has tracking. */
export const trackingFailed = (item: OutcomeItem | null): item is OutcomeItem => item?.trackingStatus === 'failed' && item.creationStatus !== 'failed';

/** Whether the tracking follow-up would learn more of the item: still tracking, or failed with no reason read yet. */
export function trackingToFollow(item: OutcomeItem | null): item is OutcomeItem & { shipmentId: string } {
  if (!item?.shipmentId) return false;
  return item.trackingStatus === 'processing' || (trackingFailed(item) && !item.trackingFailureReason);
}

/** The filters (RESULT_FLAG bits) the row of this item belongs to. */
export function resultFlags(item: OutcomeItem | null): number {
  if (!item) return RESULT_FLAG.failed;
  let flags = 0;
  if (item.creationStatus === 'failed') flags |= RESULT_FLAG.failed;
  else if (item.creationStatus === 'created') flags |= RESULT_FLAG.created;
  else if (item.creationStatus === 'updated') flags |= RESULT_FLAG.updated;
  if (trackingFailed(item)) flags |= RESULT_FLAG['tracking-failed'];
  if (item.problems.some((problem) => problem.level === 'warning')) flags |= RESULT_FLAG.warnings;
  return flags;
}

export const NO_ITEM_MESSAGE = 'The service returned no result for this row.';

/** The errors of a row as the service gave them (a row without item has one: no result). */
export function itemErrors(item: OutcomeItem | null): { column: string | null; message: string }[] {
  if (!item) return [{ column: null, message: NO_ITEM_MESSAGE }];
  return item.problems.filter((problem) => problem.level === 'error');
}

export function itemWarnings(item: OutcomeItem | null): { column: string | null; message: string }[] {
  return item?.problems.filter((problem) => problem.level === 'warning') ?? [];
}
