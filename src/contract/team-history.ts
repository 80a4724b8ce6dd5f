import { z } from 'zod';

// The console server's team history (DESIGN §1 journey 12): what a sending browser reports of an
// import job, and what any browser of the same workspace reads back. Its own endpoints under
// /console/api/, never the tracking service's. Counts and states are the browser's words for the
// job, so History's Team view reads as its This browser view does.

const count = z.number().int().min(0);
const text = (max: number) => z.string().max(max);

/** A job's id: the sending browser's random UUID (also the first half of its chunks' Idempotency-Keys). */
export const teamJobIdSchema = z.string().regex(/^[A-Za-z0-9-]{8,64}$/, 'a job id is 8 to 64 letters, digits or dashes');

const TEAM_CHUNK_STATUSES = ['pending', 'sending', 'accepted', 'rejected', 'unknown', 'skipped'] as const;

const teamChunkSchema = z.object({
  id: count,
  firstRow: count,
  lastRow: count,
  rowCount: count,
  status: z.enum(TEAM_CHUNK_STATUSES),
  /** The batch the chunk became, once accepted. */
  batchId: text(200).nullable(),
  /** Why it was rejected, skipped or has no known answer, as the sender's page said it. */
  note: text(2_000).nullable(),
});
export type TeamChunk = z.infer<typeof teamChunkSchema>;

const teamCountsSchema = z.object({
  created: count,
  updated: count,
  failed: count,
  withWarnings: count,
  trackingFailed: count,
});

/** PUT /console/api/jobs/:id — the sending browser's view of its job, written again as it changes. */
export const teamJobReportSchema = z.object({
  source: z.object({
    kind: z.enum(['file', 'quick-add', 'retry']),
    /** The file name, "Quick add", or the retry's label. */
    name: text(500),
    size: count.nullable(),
    /** SHA-256 of the dropped file, hex. */
    contentHash: z.string().regex(/^[0-9a-f]{64}$/).nullable(),
    /** The job or batch a retry fixes. */
    retryOf: text(200).nullable(),
  }),
  /** How the sender's file numbers rows: Line for a text file, Row for a sheet. */
  numbering: z.enum(['Line', 'Row']),
  /** The name typed at Connect; a single-sign-on header wins over it on the server. */
  sentBy: text(100).trim().nullable(),
  createdAt: count,
  /** The sender's version of the job (its last change, epoch ms): an older report never replaces a newer one. */
  version: count,
  /** The job's state in History's words (Sending, Processing, Finished, Paused: …). */
  state: text(300),
  finished: z.boolean(),
  rowsRead: count,
  /** Rows not sent: skipped before sending, and the rows of requests refused or skipped (History's "Skipped"). */
  rowsSkipped: count,
  counts: teamCountsSchema,
  chunks: z.array(teamChunkSchema).max(100_000),
  /** Where it is sent from: a browser (absent), or the console's server, which goes on with every tab closed. */
  runsOn: z.enum(['browser', 'console-server']).optional(),
  /** Rows left out before sending, with why; fixed once the job is made, so later reports may leave it out (kept as it was). */
  skipped: z.array(z.object({ rowNumber: count, reason: text(2_000) })).max(1_000_000).optional(),
});
export type TeamJobReport = z.infer<typeof teamJobReportSchema>;

/**
 * GET /console/api/workspace — an opaque tag of the workspace this connection speaks for (never
 * made from the key alone): a browser reports a job only to the workspace it sent it in.
 */
export const teamWorkspaceSchema = z.object({ tag: z.string() });

/** The answer to PUT /console/api/jobs/:id: which chunks' rows as sent the history already holds. */
export const teamJobReceiptSchema = z.object({ rowsKept: z.array(count) });
export type TeamJobReceipt = z.infer<typeof teamJobReceiptSchema>;

/** PUT /console/api/jobs/:id/chunks/:chunkId/rows — the chunk's rows exactly as sent. */
export const teamChunkRowsSchema = z.object({
  /** File row number of each row, in the order sent. */
  rowNumbers: z.array(count).max(100_000),
  body: z.discriminatedUnion('format', [
    z.object({ format: z.literal('csv'), csv: z.string() }),
    z.object({ format: z.literal('json'), requests: z.array(z.record(z.string(), z.unknown())).max(100_000) }),
  ]),
});
export type TeamChunkRows = z.infer<typeof teamChunkRowsSchema>;

/** GET /console/api/jobs/:id — a job as the team history keeps it. */
export const teamJobSchema = teamJobReportSchema.extend({
  id: teamJobIdSchema,
  skipped: z.array(z.object({ rowNumber: count, reason: z.string() })),
  /** Who sent it: the single-sign-on header's value, else the name typed at Connect, else null. */
  sentBy: z.string().nullable(),
  updatedAt: count,
  /** Chunks whose rows as sent the history holds. */
  rowsKept: z.array(count),
});
export type TeamJob = z.infer<typeof teamJobSchema>;

/** One line of GET /console/api/jobs: newest first, without chunks and skipped rows. */
export const teamJobLineSchema = teamJobSchema
  .omit({ chunks: true, skipped: true, rowsKept: true })
  .extend({ batchIds: z.array(z.string()) });
export type TeamJobLine = z.infer<typeof teamJobLineSchema>;

/** `more`: the list stopped at its limit; a search finds older jobs. */
export const teamJobListSchema = z.object({ data: z.array(teamJobLineSchema), more: z.boolean().default(false) });
export type TeamJobList = z.infer<typeof teamJobListSchema>;

/** Which team job and chunk a batch came from. */
const teamBatchOriginSchema = z.object({ jobId: teamJobIdSchema, chunkId: count, sourceName: z.string(), sentBy: z.string().nullable() });
export type TeamBatchOrigin = z.infer<typeof teamBatchOriginSchema>;

/**
 * GET /console/api/jobs/:id and GET /console/api/batches/:batchId answer a miss with null, not
 * 404: a job or batch the history does not hold (sent elsewhere, forgotten, another workspace's)
 * is an ordinary answer for a page that looks it up.
 */
export const teamJobLookupSchema = z.object({ job: teamJobSchema.nullable() });
export const teamBatchLookupSchema = z.object({ origin: teamBatchOriginSchema.nullable() });

/** Keys one lookup of POST /console/api/seen asks about at most, of each kind. */
export const SEEN_LOOKUP_MAX = 5_000;

/**
 * POST /console/api/seen — which of these references and tracking numbers the workspace's team
 * history has sent, and when (a POST: the lists are too long for a URL and are no one's to log).
 */
export const teamSeenQuerySchema = z.object({
  references: z.array(text(500)).max(SEEN_LOOKUP_MAX).default([]),
  trackingNumbers: z.array(text(200)).max(SEEN_LOOKUP_MAX).default([]),
});
export type TeamSeenQuery = z.infer<typeof teamSeenQuerySchema>;

const seenKeySchema = z.object({ value: z.string(), /** When the latest job that sent it was made (epoch ms). */ sentAt: count });

/** Only the keys seen; a tracking number is answered as compared (upper case, no spaces). */
export const teamSeenAnswerSchema = z.object({ references: z.array(seenKeySchema), trackingNumbers: z.array(seenKeySchema) });
export type TeamSeenAnswer = z.infer<typeof teamSeenAnswerSchema>;
