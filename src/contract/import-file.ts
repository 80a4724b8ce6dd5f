import { z } from 'zod';
import { AUTO_CARRIER, CARRIER_FORMAT_RULE, NAME_MAX_LENGTH, TRACKING_TYPES, carrierRequiredMessage, isValidCarrier } from './shipment-request';

/** Column headers of an import file, exactly as spec §2.2 spells them (case-sensitive). */
export const FILE_HEADERS = [
  'tracking_number',
  'tracking_type',
  'reference',
  'carrier',
  'name',
  'viewers',
  'tags',
  'assignees',
] as const;
export type FileHeader = (typeof FILE_HEADERS)[number];
export const REQUIRED_FILE_HEADERS = ['tracking_number', 'tracking_type'] as const satisfies readonly FileHeader[];

const CUSTOM_FIELD_PREFIX = 'cf_';
const CUSTOM_FIELD_HEADER = /^cf_([A-Za-z0-9][A-Za-z0-9_-]*)$/;

export function isFileHeader(header: string): header is FileHeader {
  return (FILE_HEADERS as readonly string[]).includes(header);
}

/** The custom field slug of a `cf_<slug>` header, or null for any other header. */
export function customFieldSlug(header: string): string | null {
  return CUSTOM_FIELD_HEADER.exec(header)?.[1] ?? null;
}

export function customFieldHeader(slug: string): string {
  return `${CUSTOM_FIELD_PREFIX}${slug}`;
}

/** Splits a comma-separated cell ("a, b,,c") into trimmed, non-empty values. */
export function splitList(cell: string | undefined): string[] {
  if (!cell) return [];
  return cell
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

const emailSchema = z.email();

export function isEmail(value: string): boolean {
  return emailSchema.safeParse(value).success;
}

/** The types custom fields have on the service (its CUSTOM_FIELD_INVALID_TYPE error). */
export type CustomFieldType = 'text' | 'date';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})?)?$/;

/** An ISO 8601 calendar date (2024-05-31), optionally with a time: what a date custom field takes. */
export function isDateValue(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function customFieldValueProblem(type: CustomFieldType, value: string): string | null {
  if (type === 'date' && !isDateValue(value)) return `expected a date (YYYY-MM-DD), not "${value.length > 40 ? `${value.slice(0, 39)}…` : value}"`;
  return null;
}

const optionalCell = z
  .string()
  .optional()
  .transform((value) => {
    const trimmed = value?.trim();
    return trimmed ? trimmed : undefined;
  });

/**
 * One data row of an import file as the service reads it: cells keyed by header. Only the
 * rules that fail a row on the service (DESIGN §3 "Rows") are errors here; softer checks live
 * in src/spreadsheet. Issue paths name the offending column.
 */
export const importFileRowSchema = z
  .object({
    tracking_number: z.string({ error: 'tracking_number is empty' }).trim().min(1, 'tracking_number is empty'),
    tracking_type: z
      .string({ error: 'tracking_type is empty' })
      .trim()
      .pipe(z.enum(TRACKING_TYPES, { error: 'tracking_type must be container, bill_of_lading or booking' })),
    reference: optionalCell,
    carrier: optionalCell.transform((value) => value?.toUpperCase()),
    name: optionalCell.pipe(z.string().max(NAME_MAX_LENGTH, `name is longer than ${NAME_MAX_LENGTH} characters`).optional()),
    viewers: optionalCell.transform(splitList),
    tags: optionalCell.transform(splitList),
    assignees: optionalCell.transform(splitList),
  })
  .catchall(z.string())
  .superRefine((row, ctx) => {
    if (row.carrier !== undefined && !isValidCarrier(row.carrier)) {
      ctx.addIssue({ code: 'custom', path: ['carrier'], message: `carrier "${row.carrier}" is not valid: ${CARRIER_FORMAT_RULE}` });
    }
    if (row.carrier === undefined && row.tracking_type !== 'container') {
      ctx.addIssue({ code: 'custom', path: ['carrier'], message: carrierRequiredMessage(row.tracking_type) });
    }
    if (row.carrier === AUTO_CARRIER && row.tracking_type !== 'container') {
      ctx.addIssue({ code: 'custom', path: ['carrier'], message: 'AUTO carrier detection is allowed only when tracking_type is container' });
    }
  });
