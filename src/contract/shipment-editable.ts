import { z } from 'zod';

const textList = z.array(z.string()).catch([]);

/**
 * What a shipment shows of the fields a PATCH sets (DESIGN §3: name, tags, viewers, assignees,
 * custom_fields). The spec's Shipment (§2.5) lists only custom_fields; the sandbox sends the others,
 * and a service that leaves them out or sends another shape reads as "none", never as a failure.
 */
export const shipmentEditableSchema = z.object({
  name: z.string().nullable().optional().catch(null),
  tags: textList.optional().transform((value) => value ?? []),
  viewers: textList.optional().transform((value) => value ?? []),
  assignees: textList.optional().transform((value) => value ?? []),
  custom_fields: z
    .record(z.string(), z.unknown())
    .catch({})
    .optional()
    .transform((fields) =>
      Object.fromEntries(
        Object.entries(fields ?? {}).flatMap(([slug, value]) =>
          value === null || value === undefined ? [] : [[slug, typeof value === 'string' ? value : JSON.stringify(value)]],
        ),
      ),
    ),
});
export type ShipmentEditable = z.infer<typeof shipmentEditableSchema>;
