import { z } from 'zod';
import { openEnum } from './open-enum';
import { paginationSchema } from './pagination';
import { NAME_MAX_LENGTH } from './shipment-request';

/**
 * A port call of the journey: pre-carriage, port of loading, port of discharge, on-carriage
 * destination. The spec does not show its structure, so every field is optional and unknown
 * ones are kept; the sandbox fills the ones named here.
 */
export const portCallSchema = z.looseObject({
  locode: z.string().nullable().optional(),
  name: z.string().nullable().optional(),
  country: z.string().nullable().optional(),
  date: z.string().nullable().optional(),
  actual: z.boolean().nullable().optional(),
});
export type PortCall = z.infer<typeof portCallSchema>;

export const trackingSchema = z.looseObject({
  tracking_freshness: openEnum(['ok']).optional(),
  pre: portCallSchema.nullable().optional(),
  pol: portCallSchema.nullable().optional(),
  pod: portCallSchema.nullable().optional(),
  pde: portCallSchema.nullable().optional(),
  containers_uri: z.string().optional(),
});

/** Shipment (spec §2.5). */
export const shipmentSchema = z.looseObject({
  id: z.string(),
  reference: z.string().nullable().optional(),
  tracking_number: z.string(),
  tracking_type: openEnum(['container', 'bill_of_lading', 'booking']),
  carrier_scac: z.string().nullable().optional(),
  name: z.string().nullable().optional(),
  last_process_status: openEnum(['track_succeeded', 'track_failed', 'processing']).nullable().optional(),
  last_process_failure_reason: z.string().nullable().optional(),
  data_status: openEnum(['success']).nullable().optional(),
  container_stage: z.string().nullable().optional(),
  custom_fields: z.record(z.string(), z.unknown()).default({}),
  tracking: trackingSchema,
});
export type Shipment = z.infer<typeof shipmentSchema>;

export const shipmentListSchema = z.looseObject({
  data: z.array(shipmentSchema),
  pagination: paginationSchema.default({}),
});
export type ShipmentList = z.infer<typeof shipmentListSchema>;

export const SHIPMENT_PAGE_SIZE_DEFAULT = 25;
export const SHIPMENT_PAGE_SIZE_MAX = 100;

/** Query of GET /api/v1/shipments (DESIGN §3): `batch_id` filter and 1-based paging. */
export const shipmentListQuerySchema = z.object({
  batch_id: z.uuid({ error: 'batch_id must be a UUID' }).optional(),
  page: z.coerce.number({ error: 'page must be a whole number' }).int('page must be a whole number').min(1, 'page starts at 1').default(1),
  page_size: z.coerce
    .number({ error: 'page_size must be a whole number' })
    .int('page_size must be a whole number')
    .min(1, 'page_size must be at least 1')
    .max(SHIPMENT_PAGE_SIZE_MAX, `page_size must be at most ${SHIPMENT_PAGE_SIZE_MAX}`)
    .default(SHIPMENT_PAGE_SIZE_DEFAULT),
});
export type ShipmentListQuery = z.infer<typeof shipmentListQuerySchema>;

/** GET /api/v1/shipment/{id}/containers (DESIGN §3). */
export const containerEventSchema = z.looseObject({
  code: z.string().optional(),
  description: z.string().optional(),
  location: z.string().nullable().optional(),
  date: z.string().nullable().optional(),
  actual: z.boolean().optional(),
});
export const containerSchema = z.looseObject({
  number: z.string(),
  iso_type: z.string().nullable().optional(),
  status: z.string().nullable().optional(),
  events: z.array(containerEventSchema).default([]),
});
export type Container = z.infer<typeof containerSchema>;
export const containerListSchema = z.looseObject({ data: z.array(containerSchema) });

/** PATCH /api/v1/shipments/id/{id} and /reference/{ref} (DESIGN §3). */
export const shipmentPatchSchema = z
  .strictObject({
    name: z.string().max(NAME_MAX_LENGTH, `name is longer than ${NAME_MAX_LENGTH} characters`).optional(),
    tags: z.array(z.string().max(200)).max(100).optional(),
    viewers: z.array(z.string()).max(100).optional(),
    assignees: z.array(z.string()).max(100).optional(),
    custom_fields: z.record(z.string(), z.string().nullable()).optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, 'the update names no field');
export type ShipmentPatch = z.infer<typeof shipmentPatchSchema>;
