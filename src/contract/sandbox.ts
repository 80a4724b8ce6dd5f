import { z } from 'zod';

/** GET /api/v1/custom_fields, a sandbox extension the console uses when present (DESIGN §3). */
export const customFieldListSchema = z.object({
  data: z.array(z.looseObject({ slug: z.string(), name: z.string() })),
});
export type CustomFieldList = z.infer<typeof customFieldListSchema>;

/** GET /sandbox.json: what the one-click "Use local sandbox" connect needs. */
export const sandboxInfoSchema = z.looseObject({
  sandbox: z.literal(true),
  api_key: z.string(),
  workspace: z.object({ id: z.string(), name: z.string() }),
  members: z.array(z.string()).default([]),
  custom_fields: z.array(z.object({ slug: z.string(), name: z.string() })).default([]),
  test_numbers: z
    .array(z.object({ tracking_number: z.string(), tracking_type: z.string(), outcome: z.string() }))
    .default([]),
  /** Rows one import request may hold (SANDBOX_MAX_BATCH_ROWS). */
  max_batch_rows: z.number().int().positive().optional(),
  /** Bytes one uploaded file may hold (SANDBOX_MAX_FILE_BYTES). */
  max_file_bytes: z.number().int().positive().optional(),
});
export type SandboxInfo = z.infer<typeof sandboxInfoSchema>;

/**
 * GET /console.json (every mode, no key needed): what this server is to the console. A sandbox
 * offers its one-click connect at /sandbox.json; a proxy forwards /api/v1 to the service, and
 * with UPSTREAM_API_KEY holds the key so the browser sends none.
 */
export const consoleInfoSchema = z.discriminatedUnion('mode', [
  z.looseObject({
    mode: z.literal('sandbox'),
    /** Send hands each job to the console's server, which runs it with every tab closed (/console/api/server-jobs). */
    runs_jobs: z.boolean().default(false),
  }),
  z.looseObject({
    mode: z.literal('proxy'),
    runs_jobs: z.boolean().default(false),
    /** The host of the service the server forwards /api/v1 to. */
    service: z.string(),
    key_held_by_server: z.boolean(),
  }),
]);
export type ConsoleInfo = z.infer<typeof consoleInfoSchema>;
