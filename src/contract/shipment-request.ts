import { z } from 'zod';

export const TRACKING_TYPES = ['container', 'bill_of_lading', 'booking'] as const;
export type TrackingType = (typeof TRACKING_TYPES)[number];
export const trackingTypeSchema = z.enum(TRACKING_TYPES);

/** The carrier value that asks the service to detect the carrier; containers only (spec §2.1). */
export const AUTO_CARRIER = 'AUTO';

/** SCAC codes are 2–4 letters (DESIGN §3); AUTO is the only other accepted value. */
export const SCAC_PATTERN = /^[A-Z]{2,4}$/;

export function isValidCarrier(value: string): boolean {
  return value === AUTO_CARRIER || SCAC_PATTERN.test(value);
}

/** One entry of the JSON import list, POST /api/v1/shipments/imports (spec §2.1). */
export const shipmentRequestSchema = z
  .object({
    reference: z.string({ error: 'reference is required (text)' }).trim().min(1, 'reference is required'),
    tracking_number: z.string({ error: 'tracking_number is required (text)' }).trim().min(1, 'tracking_number is required'),
    tracking_type: z.enum(TRACKING_TYPES, { error: 'tracking_type must be container, bill_of_lading or booking' }),
    carrier_scac: z
      .string({ error: 'carrier_scac is required (text)' })
      .trim()
      .refine(isValidCarrier, 'carrier_scac must be 2–4 letters or AUTO'),
    name: z.string({ error: 'name must be text' }).optional(),
  })
  .superRefine((request, ctx) => {
    if (request.carrier_scac === AUTO_CARRIER && request.tracking_type !== 'container') {
      ctx.addIssue({
        code: 'custom',
        path: ['carrier_scac'],
        message: 'AUTO carrier detection is allowed only when tracking_type is container',
      });
    }
  });
export type ShipmentRequest = z.infer<typeof shipmentRequestSchema>;

export const shipmentRequestListSchema = z
  .array(z.unknown())
  .min(1, 'the import list is empty');
