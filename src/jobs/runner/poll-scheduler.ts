// Who polls when (DESIGN §5): a pure function of the running batches, the budget and the clock.
// Each batch at most once per 10–15 s (spacing plus jitter, the spec's rule); all polls together
// within what the general bucket leaves after the uploads still to send, spread until its reset;
// batches take turns, the least recently polled first and, among equals, the oldest.
import { POLL_BUDGET_RESERVE, POLL_JITTER_MS, POLL_SPACING_MS } from '../job-settings';

export interface PollCandidate {
  batchId: string;
  acceptedAt: number;
  lastPolledAt: number | null;
}

/** The general bucket as the last response announced it (hourly or daily, whichever is tighter). */
export interface PollBudget {
  remaining: number;
  resetAt: number | null;
}

export interface PollPlanInput {
  batches: readonly PollCandidate[];
  budget: PollBudget | null;
  /** Uploads still to send: they need the same bucket, so polls leave them room. */
  uploadsAhead: number;
  now: number;
  random: () => number;
  spacingMs?: number;
  jitterMs?: number;
  reserve?: number;
}

/** When each batch should next be polled (epoch ms), in the order they take turns. */
export function planPolls(input: PollPlanInput): { batchId: string; dueAt: number }[] {
  const { now, random, spacingMs = POLL_SPACING_MS, jitterMs = POLL_JITTER_MS, reserve = POLL_BUDGET_RESERVE } = input;
  const order = [...input.batches].sort(
    (a, b) => (a.lastPolledAt ?? -Infinity) - (b.lastPolledAt ?? -Infinity) || a.acceptedAt - b.acceptedAt,
  );
  const gap = globalGap(input.budget, input.uploadsAhead + reserve, now);
  const lastPoll = Math.max(-Infinity, ...input.batches.map((b) => b.lastPolledAt ?? -Infinity));
  let slot = Number.isFinite(lastPoll) ? Math.max(now, lastPoll + gap.ms) : now;
  if (gap.blockedUntil !== null) slot = Math.max(slot, gap.blockedUntil);
  return order.map((batch) => {
    const own = (batch.lastPolledAt ?? batch.acceptedAt) + spacingMs + Math.round(random() * jitterMs);
    const dueAt = Math.max(slot, own);
    slot = dueAt + gap.ms;
    return { batchId: batch.batchId, dueAt };
  });
}

/**
 * The least time between two polls so that polling never spends more than the bucket has left
 * (minus what the uploads ahead need) before it resets; with nothing left, wait for the reset.
 */
function globalGap(budget: PollBudget | null, keep: number, now: number): { ms: number; blockedUntil: number | null } {
  if (!budget || budget.resetAt === null || budget.resetAt <= now) return { ms: 0, blockedUntil: null };
  const spare = budget.remaining - keep;
  const window = budget.resetAt - now;
  if (spare <= 0) return { ms: 0, blockedUntil: budget.resetAt };
  return { ms: Math.ceil(window / spare), blockedUntil: null };
}

/** A batch whose completed count has not moved for `stallAfterMs` while it is not final. */
export function isStalled(batch: { finishedAt: number | null; lastMovedAt: number }, now: number, stallAfterMs: number): boolean {
  return batch.finishedAt === null && now - batch.lastMovedAt >= stallAfterMs;
}
