// What a job will cost before it is sent (DESIGN §5, "cost before sending"): uploads and about
// how many polls, against what the budget has left, and when a cap in the way lets it go on.
// Pure. The poll estimate assumes EXPECTED_ROW_MS per row: the service documents no rate.
import type { RateLimitState } from '../contract/rate-limit';
import { POLL_JITTER_MS, POLL_SPACING_MS } from './job-settings';

/** A guess at the service's processing time per row (the sandbox's default), for the estimate only. */
export const EXPECTED_ROW_MS = 250;

export interface JobCost {
  uploads: number;
  polls: number;
  /** Import requests the import bucket allows now (null: not known yet). */
  importRemaining: number | null;
  generalRemaining: number | null;
  generalLimit: number | null;
  /** When sending can go on after a cap is in the way (epoch ms), or null when nothing blocks. */
  resumesAt: number | null;
  /** Which cap is in the way, as words. */
  blockedBy: 'import limit' | 'request budget' | null;
}

export function estimateJobCost(input: {
  rows: number;
  chunkRows: number;
  general: RateLimitState | null;
  importBucket: RateLimitState | null;
  now: number;
}): JobCost {
  const uploads = Math.ceil(input.rows / input.chunkRows);
  const processingMs = Math.min(input.rows, input.chunkRows) * EXPECTED_ROW_MS;
  const perBatch = 1 + Math.ceil(processingMs / (POLL_SPACING_MS + POLL_JITTER_MS / 2));
  const polls = uploads * perBatch;
  const { general, importBucket, now } = input;
  let resumesAt: number | null = null;
  let blockedBy: JobCost['blockedBy'] = null;
  if (general && general.resetAt !== null && general.resetAt > now && uploads + polls > general.remaining) {
    resumesAt = general.resetAt;
    blockedBy = 'request budget';
  } else if (importBucket && importBucket.resetAt !== null && importBucket.resetAt > now && uploads > importBucket.remaining) {
    resumesAt = importBucket.resetAt;
    blockedBy = 'import limit';
  }
  return {
    uploads,
    polls,
    importRemaining: importBucket?.remaining ?? null,
    generalRemaining: general?.remaining ?? null,
    generalLimit: general?.limit ?? null,
    resumesAt,
    blockedBy,
  };
}
