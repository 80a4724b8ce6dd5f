import { z } from 'zod';
import { teamChunkRowsSchema, teamJobIdSchema } from './team-history';

// Jobs the console's server runs (sandbox and proxy modes): the browser's Send hands a job with
// its rows to the server, which sends and polls it with every tab closed; browsers read it back
// and make the user's decisions. Its own endpoints under /console/api/server-jobs, one
// workspace's jobs each (the caller's, as for the team history); never the service's.

const count = z.number().int().min(0);

/** POST /console/api/server-jobs — a job as Send made it: its fields and its chunks' rows, in order. */
export const newServerJobSchema = z.object({
  /** The browser's random UUID: also the first half of every chunk's Idempotency-Key. */
  id: teamJobIdSchema,
  createdAt: count,
  source: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('file'), fileName: z.string().max(500), size: count.nullable(), contentHash: z.string().regex(/^[0-9a-f]{64}$/).nullable(), sheet: z.string().max(500).optional() }),
    z.object({ kind: z.literal('quick-add') }),
    z.object({ kind: z.literal('retry'), jobId: z.string().max(200), label: z.string().max(500), batchId: z.string().max(200).optional() }),
  ]),
  endpoint: z.enum(['file', 'list']),
  headers: z.array(z.string().max(200)).max(500),
  chunkRows: z.number().int().min(1).max(100_000),
  rowsRead: count,
  /** What the file's row numbers count: lines of a CSV, rows of a sheet. */
  numbering: z.enum(['Line', 'Row']),
  skippedBeforeSend: z.array(z.object({ rowNumber: count, reason: z.string().max(2_000) })).max(1_000_000),
  notify: z.boolean(),
  /** The name typed at Connect; a single-sign-on header wins over it on the server. */
  sentBy: z.string().trim().max(100).nullable(),
  chunks: z
    .array(teamChunkRowsSchema.extend({ withoutReference: count, /** What the Ready step foresaw each row would do, one letter per row. */ foreseen: z.string().max(100_000).optional() }))
    .min(1)
    .max(100_000),
});
export type NewServerJob = z.infer<typeof newServerJobSchema>;

/** POST /console/api/server-jobs/:id/decisions — the user's decisions, as the job machine's events. */
export const serverJobDecisionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('cancel') }),
  z.object({ type: z.literal('resume') }),
  z.object({ type: z.literal('resend'), chunkId: count }),
  z.object({ type: z.literal('skip'), chunkId: count }),
  z.object({ type: z.literal('notify'), on: z.boolean() }),
  z.object({ type: z.literal('content-hash'), hash: z.string().regex(/^[0-9a-f]{64}$/) }),
]);
export type ServerJobDecision = z.infer<typeof serverJobDecisionSchema>;

/**
 * A job as the server keeps it (src/jobs/import-job.ts ImportJob): checked here for what tells
 * jobs apart and orders them; the engine's own types describe the rest.
 */
export const serverJobSchema = z.looseObject({
  id: z.string(),
  createdAt: count,
  updatedAt: count,
  finishedAt: count.nullable(),
  runState: z.enum(['running', 'paused', 'cancelled', 'finished']),
  pausedReason: z.string().nullable(),
  chunks: z.array(z.looseObject({ id: count, state: z.looseObject({ status: z.string() }) })),
  batches: z.record(z.string(), z.looseObject({ batchId: z.string() })),
  runsOn: z.literal('console-server'),
});

export const serverJobListSchema = z.object({ data: z.array(serverJobSchema) });
export const serverJobAnswerSchema = z.object({ job: serverJobSchema });
/** The job after a decision, and the sentence why the machine refused it (null: it applied). */
export const serverJobDecisionAnswerSchema = z.object({ job: serverJobSchema, refused: z.string().nullable() });

/** A chunk's rows as sent, with what the Ready step foresaw of each (the job page's "As foreseen?"). */
export const serverJobPayloadSchema = teamChunkRowsSchema.extend({ jobId: z.string(), chunkId: count, foreseen: z.string().max(100_000).optional() });
export const serverJobOutcomeSchema = z.looseObject({ jobId: z.string(), batchId: z.string(), chunkId: count, status: z.string(), failureReason: z.string().nullable(), items: z.array(z.unknown()) });
export const serverJobOutcomesSchema = z.object({ data: z.array(serverJobOutcomeSchema) });
