// The rules that decide, per submitted row, between failing it (errors) and processing it with
// notes (warnings), exactly as DESIGN §3 "Rows" lists them. JSON list rows and file rows share
// everything after their schema.
import type { z } from 'zod';
import type { RowProblem } from '../../../contract/batch';
import { type CustomFieldType, customFieldSlug, customFieldValueProblem, importFileRowSchema, isEmail } from '../../../contract/import-file';
import { AUTO_CARRIER, shipmentRequestSchema, type TrackingType } from '../../../contract/shipment-request';
import { carrierFromName, findCarrierByScac, inferCarrierFromNumber } from '../../../spreadsheet/carriers';
import { closest } from '../../../spreadsheet/edit-distance';
import { formatCount } from '../../../spreadsheet/read-error';
import { DEFAULT_TABLE_LIMITS } from '../../../spreadsheet/table-limits';
import type { ShipmentChanges } from '../store/shipments';

export interface RowContext {
  /** Member e-mails of the workspace, lower case. */
  members: ReadonlySet<string>;
  /** The workspace's custom fields by slug, with their types. */
  customFields: ReadonlyMap<string, CustomFieldType>;
  /** SCACs the service supports (SANDBOX_CARRIERS); any other well-formed SCAC fails the row. */
  supportedCarriers: ReadonlySet<string>;
}

export interface ValidRow {
  reference: string | null;
  changes: ShipmentChanges & { trackingNumber: string; trackingType: TrackingType; carrierScac: string };
}

export type RowVerdict =
  | { ok: true; row: ValidRow; warnings: RowProblem[] }
  | { ok: false; errors: RowProblem[]; warnings: RowProblem[] };

/** Same cap on a JSON field as the file reader puts on a cell (Excel's own limit). */
const MAX_FIELD_LENGTH = DEFAULT_TABLE_LIMITS.maxCellLength;

/** AUTO detection falls back to these when the number's prefix names no known carrier. */
const AUTO_FALLBACK = ['MAEU', 'MSCU', 'CMDU', 'HLCU', 'ONEY', 'EGLV', 'COSU'] as const;

const problem = (message: string, target: string | null, suggestedFix?: string | null): RowProblem =>
  suggestedFix ? { code: 'invalid_input', message, target, suggested_fix: suggestedFix } : { code: 'invalid_input', message, target };

/** What to do about a carrier value the rules refused, where there is something to suggest. */
function carrierFix(field: string, given: unknown, number: unknown): string | null {
  const inferred = typeof number === 'string' ? inferCarrierFromNumber(number) : null;
  if (typeof given !== 'string' || given.trim() === '') {
    return inferred ? `Set ${field} to ${inferred}: the number starts with that SCAC (${findCarrierByScac(inferred)?.name ?? inferred}).` : null;
  }
  const named = carrierFromName(given);
  if (named) return `Use ${named.name}'s SCAC, ${named.scac}, in ${field}.`;
  return inferred ? `Set ${field} to ${inferred}: the number starts with that SCAC.` : null;
}

function issuesToProblems(issues: readonly z.core.$ZodIssue[], input: Record<string, unknown>, carrierField: string): RowProblem[] {
  return issues.map((issue) => {
    const field = typeof issue.path[0] === 'string' ? issue.path[0] : null;
    const fix = field === carrierField ? carrierFix(carrierField, input[carrierField], input.tracking_number) : null;
    if (field !== null && issue.code === 'invalid_type' && input[field] === undefined) return problem(`${field} is required`, field, fix);
    if (field !== null && !issue.message.toLowerCase().startsWith(field)) return problem(`${field}: ${issue.message}`, field, fix);
    return problem(issue.message, field, fix);
  });
}

/**
 * The carrier in effect: as given when the service supports it, detected for AUTO containers
 * (B/L and bookings without carrier were refused by the schema, as the real service does).
 */
function resolveCarrier(number: string, given: string | undefined, target: string, context: RowContext): string | RowProblem {
  if (given !== undefined && given !== AUTO_CARRIER) {
    if (context.supportedCarriers.has(given)) return given;
    const near = closest(given, context.supportedCarriers, 1);
    return problem(`${target}: ${given} is not a carrier this service supports`, target, near ? `Did you mean ${near}?` : null);
  }
  const inferred = inferCarrierFromNumber(number);
  if (inferred && context.supportedCarriers.has(inferred)) return inferred;
  return AUTO_FALLBACK[number.length % AUTO_FALLBACK.length]!;
}

function checkEmails(column: 'viewers' | 'assignees', emails: readonly string[], context: RowContext, warnings: RowProblem[]): string[] {
  const kept: string[] = [];
  for (const email of emails) {
    if (!isEmail(email)) {
      warnings.push(problem(`"${email}" in ${column} is not an e-mail address; it was left out`, column));
    } else if (column === 'assignees' && !context.members.has(email.toLowerCase())) {
      warnings.push(problem(`${email} is not a member of this workspace, so the shipment was not assigned to them`, column));
    } else {
      kept.push(email);
    }
  }
  return kept;
}

export function checkListRow(input: unknown, context: RowContext): RowVerdict {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, errors: [problem('the entry is not an object with reference, tracking_number, tracking_type and carrier_scac', null)], warnings: [] };
  }
  const fields = input as Record<string, unknown>;
  const tooLong = Object.entries(fields).filter(([, value]) => typeof value === 'string' && value.length > MAX_FIELD_LENGTH);
  if (tooLong.length > 0) {
    return { ok: false, errors: tooLong.map(([key]) => problem(`${key} is longer than ${MAX_FIELD_LENGTH} characters`, key)), warnings: [] };
  }
  const parsed = shipmentRequestSchema.safeParse(fields);
  if (!parsed.success) return { ok: false, errors: issuesToProblems(parsed.error.issues, fields, 'carrier_scac'), warnings: [] };
  const request = parsed.data;
  const carrier = resolveCarrier(request.tracking_number, request.carrier_scac, 'carrier_scac', context);
  if (typeof carrier !== 'string') return { ok: false, errors: [carrier], warnings: [] };
  return {
    ok: true,
    row: {
      reference: request.reference,
      changes: {
        trackingNumber: request.tracking_number,
        trackingType: request.tracking_type,
        carrierScac: carrier,
        name: request.name?.trim() || undefined,
      },
    },
    warnings: [],
  };
}

/**
 * A file's cells over the reader's cap: the reader keeps such a cell shortened (its first 32,767
 * characters and an ellipsis), so the file's other rows import and this row fails, as in the
 * browser (validate-row.ts, `too_long`). Its true length stayed in the parse worker; the sentence
 * says how the cell is shown instead.
 */
function overLongCells(input: Record<string, string>): RowProblem[] {
  return Object.entries(input)
    .filter(([, cell]) => cell.length > MAX_FIELD_LENGTH)
    .map(([header]) =>
      problem(`${header} has more than ${formatCount(MAX_FIELD_LENGTH)} characters, the most a cell may hold; it is shown shortened, ending in “…”`, header),
    );
}

export function checkFileRow(input: Record<string, string>, context: RowContext): RowVerdict {
  const tooLong = overLongCells(input);
  if (tooLong.length > 0) return { ok: false, errors: tooLong, warnings: [] };
  const parsed = importFileRowSchema.safeParse(input);
  if (!parsed.success) return { ok: false, errors: issuesToProblems(parsed.error.issues, input, 'carrier'), warnings: [] };
  const row = parsed.data;
  const carrier = resolveCarrier(row.tracking_number, row.carrier, 'carrier', context);
  if (typeof carrier !== 'string') return { ok: false, errors: [carrier], warnings: [] };

  const warnings: RowProblem[] = [];
  const viewers = checkEmails('viewers', row.viewers, context, warnings);
  const assignees = checkEmails('assignees', row.assignees, context, warnings);
  const customFields: Record<string, string> = {};
  for (const [header, cell] of Object.entries(input)) {
    const slug = customFieldSlug(header);
    const value = cell.trim();
    if (slug === null || value === '') continue;
    const type = context.customFields.get(slug);
    const wrongType = type === undefined ? null : customFieldValueProblem(type, value);
    if (type === undefined) warnings.push(problem(`there is no custom field "${slug}" in this workspace; the column ${header} was ignored`, header));
    else if (wrongType) warnings.push(problem(`${header}: ${wrongType}; the value was ignored`, header, type === 'date' ? 'Write the date as YYYY-MM-DD, e.g. 2026-01-31.' : null));
    else customFields[slug] = value;
  }
  return {
    ok: true,
    row: {
      reference: row.reference ?? null,
      changes: {
        trackingNumber: row.tracking_number,
        trackingType: row.tracking_type,
        carrierScac: carrier,
        name: row.name,
        // An empty cell leaves the stored list as it is; a cell whose every value was dropped too.
        tags: row.tags.length > 0 ? row.tags : undefined,
        viewers: viewers.length > 0 ? viewers : undefined,
        assignees: assignees.length > 0 ? assignees : undefined,
        customFields,
      },
    },
    warnings,
  };
}
