import { z } from 'zod';
import { openEnum } from './open-enum';

/**
 * Warning or error element of a batch result item (spec §2.4): `{code, message, target}`, plus
 * `suggested_fix` where the service has one (the real service does; so does the sandbox).
 */
export const rowProblemSchema = z.looseObject({
  code: openEnum(['invalid_input']),
  message: z.string(),
  target: z.string().nullable().optional(),
  suggested_fix: z.string().nullable().optional(),
});
export type RowProblem = z.infer<typeof rowProblemSchema>;

export const BATCH_STATUSES = ['processing', 'completed', 'failed'] as const;
const FINAL_BATCH_STATUSES: readonly string[] = ['completed', 'failed'];

export const CREATION_STATUSES = ['processing', 'created', 'updated', 'failed'] as const;
export const TRACKING_STATUSES = ['processing', 'succeeded', 'failed'] as const;

/**
 * One result item per submitted row (spec §2.4). The spec documents more fields than it lists,
 * so unknown fields are kept; `row_number` is a sandbox extension (1-based data row).
 */
export const resultItemSchema = z.looseObject({
  id: z.string(),
  reference: z.string().nullable().optional(),
  tracking_type: openEnum(['container', 'bill_of_lading', 'booking']),
  tracking_number: z.string(),
  carrier_scac: z.string().nullable().optional(),
  creation_status: openEnum(CREATION_STATUSES),
  tracking_status: openEnum(TRACKING_STATUSES),
  shipment_id: z.string().nullable().optional(),
  name: z.string().nullable().optional(),
  errors: z.array(rowProblemSchema).default([]),
  warnings: z.array(rowProblemSchema).default([]),
  row_number: z.number().int().positive().optional(),
});
export type ResultItem = z.infer<typeof resultItemSchema>;

/** ShipmentRequestBatch, the result of an import (spec §2.3); `failure_reason` is a sandbox extension. */
export const batchSchema = z.looseObject({
  id: z.string(),
  status: openEnum(BATCH_STATUSES),
  created_at: z.string(),
  results: z.array(resultItemSchema),
  total_requests: z.number().int().nonnegative(),
  completed_requests: z.number().int().nonnegative(),
  failure_reason: z.string().nullable().optional(),
});
export type Batch = z.infer<typeof batchSchema>;

/** A client treats `completed` and `failed` as final (spec §3); anything else keeps polling. */
export function isFinalBatchStatus(status: string): boolean {
  return FINAL_BATCH_STATUSES.includes(status);
}
