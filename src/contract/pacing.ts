import { z } from 'zod';

// GET /console/api/pacing: what the console server's pacer is doing for the connection's
// workspace (DESIGN §5, "One budget per workspace"), for the browsers' rate-limit meter. Its own
// endpoint under /console/api/, never the tracking service's.

const count = z.number().int().min(0);

export const PACER_BUCKETS = ['general', 'import_list', 'import_file', 'patch_id', 'patch_reference'] as const;

export const pacingSchema = z.object({
  /**
   * Ids of the workspace's jobs sending: imports waiting or in flight, or sent in the last 30 s by
   * a job with chunks left to send (as the team history knows it); a browser knows which are its own.
   */
  jobsSending: z.array(z.string().max(64)).max(1_000),
  /** Ids of jobs with every chunk sent, polling for their results (a poll in the last 30 s), not finished. */
  jobsWaitingForResults: z.array(z.string().max(64)).max(1_000).default([]),
  /** Requests held for the rate limit: imports, jobs' polls, and what people wait for (pages, PATCH). */
  queued: z.object({ imports: count, polls: count, people: count }),
  /** Requests sent and not yet answered. */
  inFlight: count,
  /** Milliseconds until the next import may go; 0 when one may go now. */
  nextImportSlotInMs: count,
  /** Milliseconds the service's 429 still holds the workspace; 0 when none does. */
  pausedForMs: count,
  /** The buckets as the pacer knows them: limit, what is left (its own sends counted), when the window resets (epoch ms). */
  buckets: z.array(z.object({ name: z.enum(PACER_BUCKETS), limit: count, remaining: count, resetAt: z.number().nullable() })),
});
export type PacingView = z.infer<typeof pacingSchema>;

/**
 * The request header naming the job a request works for, where no Idempotency-Key does (a job's
 * polls): the console's server shares the budget between jobs by it. Sent only to the console's
 * own server, never to a service on another origin; the proxy does not forward it.
 */
export const CONSOLE_JOB_HEADER = 'X-Console-Job';
