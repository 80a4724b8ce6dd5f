// Tracking follow-up: a batch is `completed` once its rows are processed, but
// the real service may still be tracking some of its shipments, and a result item says that
// tracking failed without saying why (the reason is the shipment's `last_process_failure_reason`).
// Those shipments are re-checked slowly through `GET /api/v1/shipments?batch_id=…` (the only read
// that covers them by batch) until each one's tracking succeeds or fails, a failure with its
// reason. Pure: the runner keeps the state, asks which batches are due and when the next check
// is, and records each page it reads (job-runner.ts, which also writes what a check found into
// the batch's outcome, applyFollowUp, and into its progress, progressAfterFollowUp).
//
//   startFollowUps(outcomes)          → one follow-up per finished batch with tracking still processing
//                                       or failed without its reason
//   dueFollowUps(list, now)           → those to check now (never sooner than FOLLOW_UP_SPACING_MS apart)
//   nextFollowUpAt(list)              → when the runner should wake for the next one (null: none left)
//   recordShipmentPage(f, page, now)  → the follow-up after one page, and whether to read the next page
import type { Shipment } from '../../contract/shipment';
import type { BatchOutcome, BatchProgress, RowProblemRecord } from '../import-job';
import { trackingFailed, trackingToFollow as toFollowUp } from '../result-item';

/** At least this long between two checks of one batch; each fruitless check doubles it, up to the cap. */
export const FOLLOW_UP_SPACING_MS = 60_000;
export const FOLLOW_UP_SPACING_CAP_MS = 15 * 60_000;
/** Shipments per page: the list's maximum, so a batch of 5,000 rows needs at most 50 requests. */
export const FOLLOW_UP_PAGE_SIZE = 100;

export interface TrackingFollowUp {
  batchId: string;
  /** Shipments whose tracking was still `processing`, not yet seen final. */
  pending: string[];
  /** `last_process_failure_reason` (or a sentence when the service gives none) by shipment id. */
  failures: Record<string, string>;
  /** Checks finished (all pages read, or stopped early because nothing was left pending). */
  checks: number;
  /** When the last check finished; the next is due FOLLOW_UP_SPACING_MS × 2^(checks-1) later. */
  lastCheckAt: number | null;
  /** The page the check in progress reads next (1-based). */
  nextPage: number;
}

export function startFollowUps(outcomes: readonly BatchOutcome[]): TrackingFollowUp[] {
  return outcomes.flatMap((outcome) => {
    const pending = outcome.items.flatMap((item) => (toFollowUp(item) ? [item.shipmentId] : []));
    return pending.length > 0 ? [{ batchId: outcome.batchId, pending, failures: {}, checks: 0, lastCheckAt: null, nextPage: 1 }] : [];
  });
}

function dueAt(followUp: TrackingFollowUp): number | null {
  if (followUp.pending.length === 0) return null;
  if (followUp.lastCheckAt === null) return 0;
  const spacing = Math.min(FOLLOW_UP_SPACING_CAP_MS, FOLLOW_UP_SPACING_MS * 2 ** Math.max(0, followUp.checks - 1));
  return followUp.lastCheckAt + spacing;
}

/** Follow-ups to check now, the longest-waiting first. */
export function dueFollowUps(followUps: readonly TrackingFollowUp[], now: number): TrackingFollowUp[] {
  return followUps.filter((f) => {
    const at = dueAt(f);
    return at !== null && at <= now;
  }).sort((a, b) => (a.lastCheckAt ?? 0) - (b.lastCheckAt ?? 0));
}

/** When the next follow-up is due, or null when every shipment's tracking is final. */
export function nextFollowUpAt(followUps: readonly TrackingFollowUp[]): number | null {
  let next: number | null = null;
  for (const f of followUps) {
    const at = dueAt(f);
    if (at !== null && (next === null || at < next)) next = at;
  }
  return next;
}

/** The query of the next page of a follow-up's check. */
export function followUpQuery(followUp: TrackingFollowUp): { batch_id: string; page: number; page_size: number } {
  return { batch_id: followUp.batchId, page: followUp.nextPage, page_size: FOLLOW_UP_PAGE_SIZE };
}

/**
 * One page of the batch's shipments read: pending shipments whose tracking is final leave the
 * list (a failure keeps its reason). The check goes on to the next page while something is
 * pending and the page was not the last; otherwise it ends and the next one waits its spacing.
 */
export function recordShipmentPage(
  followUp: TrackingFollowUp,
  page: { shipments: readonly Pick<Shipment, 'id' | 'last_process_status' | 'last_process_failure_reason'>[]; lastPage: boolean },
  now: number,
): { followUp: TrackingFollowUp; readNextPage: boolean } {
  const byId = new Map(page.shipments.map((shipment) => [shipment.id, shipment]));
  const failures = { ...followUp.failures };
  const pending = followUp.pending.filter((id) => {
    const shipment = byId.get(id);
    if (shipment?.last_process_status === 'track_failed') failures[id] = shipment.last_process_failure_reason || 'the service gave none';
    return !(shipment?.last_process_status === 'track_failed' || shipment?.last_process_status === 'track_succeeded');
  });
  const readNextPage = pending.length > 0 && !page.lastPage && page.shipments.length > 0;
  const next: TrackingFollowUp = readNextPage
    ? { ...followUp, pending, failures, nextPage: followUp.nextPage + 1 }
    : { ...followUp, pending, failures, nextPage: 1, checks: followUp.checks + 1, lastCheckAt: now };
  return { followUp: next, readNextPage };
}

/**
 * The outcome after a check: shipments of the follow-up that are no longer pending get their
 * final tracking status, a failure its `last_process_failure_reason` (an item that had failed
 * already gets only its reason). Returns null when nothing changed (no write needed).
 */
export function applyFollowUp(outcome: BatchOutcome, followUp: TrackingFollowUp): BatchOutcome | null {
  const pending = new Set(followUp.pending);
  let changed = false;
  const items = outcome.items.map((item) => {
    if (!toFollowUp(item) || pending.has(item.shipmentId)) return item;
    const reason = followUp.failures[item.shipmentId];
    if (item.trackingStatus === 'failed') {
      if (reason === undefined) return item;
      changed = true;
      return { ...item, trackingFailureReason: reason };
    }
    changed = true;
    return reason === undefined ? { ...item, trackingStatus: 'succeeded' } : { ...item, trackingStatus: 'failed', trackingFailureReason: reason };
  });
  return changed ? { ...outcome, items } : null;
}

/** As many live problems as a poll's digest keeps (batch-digest.ts LIVE_PROBLEMS_KEPT). */
const LIVE_PROBLEMS_KEPT = 200;

/**
 * The batch's progress once its outcome took a check's findings: tracking failures counted, and
 * listed among its live problems with their reasons. A failure the check found (the row was still
 * tracking when the batch finished) is added in row order while the list has room.
 */
export function progressAfterFollowUp(progress: BatchProgress, outcome: BatchOutcome): BatchProgress {
  const failed = outcome.items.filter(trackingFailed);
  const reasons = new Map(failed.map((item) => [item.shipmentId, item.trackingFailureReason ?? null]));
  const listed = new Set<string | null>();
  const problems: RowProblemRecord[] = progress.problems.map((problem) => {
    if (problem.level !== 'tracking-failed') return problem;
    listed.add(problem.shipmentId);
    return { ...problem, reason: reasons.get(problem.shipmentId) ?? problem.reason };
  });
  // While the list has room it holds every problem counted so far: a failure not in it is new.
  for (const item of failed) {
    if (problems.length >= LIVE_PROBLEMS_KEPT) break;
    if (listed.has(item.shipmentId)) continue;
    const at = problems.findIndex((problem) => problem.rowNumber > item.rowNumber);
    problems.splice(at === -1 ? problems.length : at, 0, { rowNumber: item.rowNumber, level: 'tracking-failed', shipmentId: item.shipmentId, reason: item.trackingFailureReason ?? null });
  }
  const newlyFailed = Math.max(0, failed.length - progress.counts.trackingFailed);
  return { ...progress, counts: { ...progress.counts, trackingFailed: failed.length }, problems, problemCount: progress.problemCount + newlyFailed };
}
