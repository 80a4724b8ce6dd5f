import { z } from 'zod';

/** Shipments per page of the list. */
export const PAGE_SIZE = 25;

/**
 * What the Shipments URL holds, so a filtered list can be bookmarked and shared: an import `job`
 * of this browser (the list shows one of its batches, `batch_id`, the first by default), or any
 * `batch_id`, and the page.
 */
export const shipmentsSearchSchema = z.object({
  job: z.string().trim().min(1).optional().catch(undefined),
  batch_id: z.string().trim().min(1).optional().catch(undefined),
  page: z.coerce.number().int().min(1).optional().catch(undefined),
});
export type ShipmentsSearch = z.infer<typeof shipmentsSearchSchema>;
