import { z } from 'zod';

export const TRACKING_TYPES = ['container', 'bill_of_lading', 'booking'] as const;
export type TrackingType = (typeof TRACKING_TYPES)[number];

/** The carrier value that asks the service to detect the carrier; containers only (spec §2.1). */
export const AUTO_CARRIER = 'AUTO';

/**
 * The real service: "A SCAC must be exactly 4 alphanumeric characters", or AUTO (DESIGN §3).
 * Whether a well-formed SCAC is one the service supports is the service's own list, not a shape.
 */
const SCAC_PATTERN = /^[A-Z0-9]{4}$/;
export const CARRIER_FORMAT_RULE = 'a SCAC is exactly 4 letters or digits, or AUTO';

/** The real service refuses longer names (NAME_TOO_LONG). */
export const NAME_MAX_LENGTH = 255;

export function isValidCarrier(value: string): boolean {
  return value === AUTO_CARRIER || SCAC_PATTERN.test(value);
}

/** The real service's sentence (CARRIER_SCAC_REQUIRED) for a B/L or booking without carrier. */
export function carrierRequiredMessage(type: TrackingType): string {
  return `Carrier SCAC is required for ${type}`;
}

const nameSchema = z
  .string({ error: 'name must be text' })
  .max(NAME_MAX_LENGTH, `name is longer than ${NAME_MAX_LENGTH} characters`);

/** One entry of the JSON import list, POST /api/v1/shipments/imports (spec §2.1). */
export const shipmentRequestSchema = z
  .object({
    reference: z.string({ error: 'reference is required (text)' }).trim().min(1, 'reference is required'),
    tracking_number: z.string({ error: 'tracking_number is required (text)' }).trim().min(1, 'tracking_number is required'),
    tracking_type: z.enum(TRACKING_TYPES, { error: 'tracking_type must be container, bill_of_lading or booking' }),
    carrier_scac: z
      .string({ error: 'carrier_scac is required (text)' })
      .trim()
      .refine(isValidCarrier, `carrier_scac: ${CARRIER_FORMAT_RULE}`),
    name: nameSchema.optional(),
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

/** The body of POST /api/v1/shipments/imports; Quick add sends it (DESIGN §1.11). */
export const shipmentRequestListSchema = z
  .array(z.unknown())
  .min(1, 'the import list is empty');
