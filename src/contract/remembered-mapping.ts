import { z } from 'zod';
import { customFieldSlug, isFileHeader } from './import-file';

// Remembered mappings (DESIGN §1 journey 14): a mapping made by hand, kept under a fingerprint of
// the file's set of headers, in the browser and for the workspace on the console's server
// (/console/api/mappings). The fingerprint is computed by src/spreadsheet/remembered-mapping.ts.

const count = z.number().int().min(0);

/** Where a remembered column went: a spec header, a `cf_<slug>` header, or null (ignored). */
const targetSchema = z
  .string()
  .refine((target) => isFileHeader(target) || customFieldSlug(target) !== null, 'a target is a spec header or cf_<slug>')
  .nullable();

export const rememberedMappingSchema = z.object({
  /** Of the set of headers (order, case and spacing ignored). */
  fingerprint: z.string().regex(/^[0-9a-f]{16}$/, 'a fingerprint is 16 hex digits'),
  /** The file the mapping was made for. */
  fileName: z.string().min(1).max(500),
  /** The workbook's sheet (null for a text file). */
  sheet: z.string().max(200).nullable(),
  /** Index of the header row among the rows read (0 = the first). */
  headerRow: count.max(1_000),
  /** Every column of the header as written, with where it went. */
  columns: z.array(z.object({ header: z.string().max(1_000), target: targetSchema })).min(1).max(20_000),
  savedAt: count,
  /** The name typed at Connect; a single-sign-on header wins over it on the server. */
  savedBy: z.string().trim().max(100).nullable(),
});
export type RememberedMapping = z.infer<typeof rememberedMappingSchema>;

/** GET /console/api/mappings — the workspace's remembered mappings, newest first. */
export const rememberedMappingListSchema = z.object({ data: z.array(rememberedMappingSchema) });
export type RememberedMappingList = z.infer<typeof rememberedMappingListSchema>;
