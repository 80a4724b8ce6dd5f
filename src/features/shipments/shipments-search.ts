import { z } from 'zod';

/**
 * What the Shipments URL holds, so a filtered list can be bookmarked and shared. A `job` picker
 * (one import job's batches) joins `batch_id` here when the job engine exists.
 */
export const shipmentsSearchSchema = z.object({
  batch_id: z.string().trim().min(1).optional().catch(undefined),
  page: z.coerce.number().int().min(1).optional().catch(undefined),
});
export type ShipmentsSearch = z.infer<typeof shipmentsSearchSchema>;
