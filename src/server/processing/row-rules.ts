// The rules that decide, per submitted row, between failing it (errors) and processing it with
// notes (warnings), exactly as DESIGN §3 "Rows" lists them. JSON list rows and file rows share
// everything after their schema.
import type { z } from 'zod';
import type { RowProblem } from '../../contract/batch';
import { customFieldSlug, importFileRowSchema, isEmail } from '../../contract/import-file';
import { AUTO_CARRIER, shipmentRequestSchema, type TrackingType } from '../../contract/shipment-request';
import { inferCarrierFromNumber } from '../../spreadsheet/carriers';
import { DEFAULT_TABLE_LIMITS } from '../../spreadsheet/table-limits';
import type { ShipmentChanges } from '../store/shipments';

export interface RowContext {
  /** Member e-mails of the workspace, lower case. */
  members: ReadonlySet<string>;
  customFieldSlugs: ReadonlySet<string>;
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

const problem = (message: string, target: string | null): RowProblem => ({ code: 'invalid_input', message, target });

function issuesToProblems(issues: readonly z.core.$ZodIssue[], input: Record<string, unknown>): RowProblem[] {
  return issues.map((issue) => {
    const field = typeof issue.path[0] === 'string' ? issue.path[0] : null;
    if (field !== null && issue.code === 'invalid_type' && input[field] === undefined) return problem(`${field} is required`, field);
    if (field !== null && !issue.message.startsWith(field)) return problem(`${field}: ${issue.message}`, field);
    return problem(issue.message, field);
  });
}

/** The carrier in effect: as given, detected for AUTO containers, inferred for B/L and bookings. */
function resolveCarrier(type: TrackingType, number: string, given: string | undefined, target: string): string | RowProblem {
  if (given !== undefined && given !== AUTO_CARRIER) return given;
  const inferred = inferCarrierFromNumber(number);
  if (inferred) return inferred;
  if (type === 'container') return AUTO_FALLBACK[number.length % AUTO_FALLBACK.length]!;
  return problem(`${target} is empty and no known carrier's SCAC prefix starts "${number}"; give the carrier's SCAC code`, target);
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

export function checkListRow(input: unknown, _context: RowContext): RowVerdict {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, errors: [problem('the entry is not an object with reference, tracking_number, tracking_type and carrier_scac', null)], warnings: [] };
  }
  const fields = input as Record<string, unknown>;
  const tooLong = Object.entries(fields).filter(([, value]) => typeof value === 'string' && value.length > MAX_FIELD_LENGTH);
  if (tooLong.length > 0) {
    return { ok: false, errors: tooLong.map(([key]) => problem(`${key} is longer than ${MAX_FIELD_LENGTH} characters`, key)), warnings: [] };
  }
  const parsed = shipmentRequestSchema.safeParse(fields);
  if (!parsed.success) return { ok: false, errors: issuesToProblems(parsed.error.issues, fields), warnings: [] };
  const request = parsed.data;
  const carrier = resolveCarrier(request.tracking_type, request.tracking_number, request.carrier_scac, 'carrier_scac');
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

export function checkFileRow(input: Record<string, string>, context: RowContext): RowVerdict {
  const parsed = importFileRowSchema.safeParse(input);
  if (!parsed.success) return { ok: false, errors: issuesToProblems(parsed.error.issues, input), warnings: [] };
  const row = parsed.data;
  const carrier = resolveCarrier(row.tracking_type, row.tracking_number, row.carrier, 'carrier');
  if (typeof carrier !== 'string') return { ok: false, errors: [carrier], warnings: [] };

  const warnings: RowProblem[] = [];
  const viewers = checkEmails('viewers', row.viewers, context, warnings);
  const assignees = checkEmails('assignees', row.assignees, context, warnings);
  const customFields: Record<string, string> = {};
  for (const [header, cell] of Object.entries(input)) {
    const slug = customFieldSlug(header);
    const value = cell.trim();
    if (slug === null || value === '') continue;
    if (context.customFieldSlugs.has(slug)) customFields[slug] = value;
    else warnings.push(problem(`there is no custom field "${slug}" in this workspace; the column ${header} was ignored`, header));
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
