// The shipment edit form's rules: the importer's own row checks (validateRow: e-mails, list
// separators, formula-like text, Excel date serials), plus what only an update needs — the
// service's limits on a name, dates in date fields, assignees who are members — and the PATCH
// body of what changed.
import { splitList } from '../../contract/import-file';
import { shipmentPatchSchema, type Shipment, type ShipmentPatch } from '../../contract/shipment';
import type { ShipmentEditable } from '../../contract/shipment-editable';
import { DEFAULT_TABLE_LIMITS } from '../../spreadsheet/table-limits';
import { createValidationContext, reviewColumns, validateRow } from '../../spreadsheet/validate-row';
import { formatCount } from '../../components/plural';

export const NAME_MAX = 255;

export type EditField = 'name' | 'tags' | 'viewers' | 'assignees' | `cf_${string}`;

export interface EditValues {
  name: string;
  tags: string;
  viewers: string;
  assignees: string;
  /** Keyed by the field's column, `cf_<slug>`. */
  customFields: Record<`cf_${string}`, string>;
}

export interface CustomFieldInput {
  slug: string;
  name: string;
  isDate: boolean;
}

export interface EditProblem {
  field: EditField;
  level: 'error' | 'warning';
  message: string;
  fix?: string;
}

export interface EditCheck {
  problems: EditProblem[];
  /** The fields that changed, or null when none did. */
  patch: ShipmentPatch | null;
}

export interface EditContext {
  customFields: readonly CustomFieldInput[];
  /** The workspace's members, lower-cased, when the console knows them. */
  members: ReadonlySet<string> | null;
}

const EDIT_FIELDS = new Set<string>(['name', 'tags', 'viewers', 'assignees']);

export function editValuesOf(editable: ShipmentEditable, customFields: readonly CustomFieldInput[]): EditValues {
  return {
    name: editable.name ?? '',
    tags: editable.tags.join(', '),
    viewers: editable.viewers.join(', '),
    assignees: editable.assignees.join(', '),
    customFields: Object.fromEntries(customFields.map((field) => [`cf_${field.slug}` as const, editable.custom_fields[field.slug] ?? ''])),
  };
}

function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((value, i) => value === b[i]);

export function checkEdit(shipment: Shipment, editable: ShipmentEditable, values: EditValues, context: EditContext): EditCheck {
  const cfColumns = context.customFields.map((field) => `cf_${field.slug}` as const);
  const columns = reviewColumns(cfColumns);
  const byHeader: Record<string, string> = {
    tracking_number: shipment.tracking_number,
    tracking_type: shipment.tracking_type,
    reference: shipment.reference ?? '',
    carrier: shipment.carrier_scac ?? '',
    name: values.name,
    viewers: values.viewers,
    tags: values.tags,
    assignees: values.assignees,
  };
  const raw = columns.map((column) => (column in byHeader ? byHeader[column]! : (values.customFields[column as `cf_${string}`] ?? '')));
  const out: string[] = [];
  const rowIssues = validateRow(0, raw, out, createValidationContext(columns, DEFAULT_TABLE_LIMITS.maxCellLength)) ?? [];

  const problems: EditProblem[] = [];
  for (const issue of rowIssues) {
    const editable = EDIT_FIELDS.has(issue.column) || issue.column.startsWith('cf_');
    if (!editable || issue.level === 'auto_fix') continue;
    problems.push({ field: issue.column as EditField, level: issue.level, message: issue.message, ...(issue.fix !== undefined ? { fix: issue.fix } : {}) });
  }
  const hasError = (field: EditField) => problems.some((problem) => problem.field === field && problem.level === 'error');
  const add = (problem: EditProblem) => {
    if (!hasError(problem.field)) problems.push(problem);
  };

  const value = (column: string) => out[columns.indexOf(column as (typeof columns)[number])] ?? '';
  const name = value('name');
  if (name.length > NAME_MAX) add({ field: 'name', level: 'error', message: `name: ${formatCount(name.length)} characters; the limit is ${NAME_MAX}.` });

  const assignees = splitList(value('assignees'));
  if (context.members && !hasError('assignees')) {
    const stranger = assignees.find((email) => !context.members!.has(email.toLowerCase()));
    if (stranger) add({ field: 'assignees', level: 'error', message: `assignees: ${stranger} is not a member of this workspace, so it cannot be assigned.` });
  }

  for (const field of context.customFields) {
    const column = `cf_${field.slug}` as const;
    const text = value(column);
    if (field.isDate && text !== '' && !isCalendarDate(text)) {
      // The importer's sentence says the service ignores such a value in a file; a PATCH is
      // refused instead, so this sentence replaces it, keeping the importer's fix (an Excel serial's date).
      const imported = problems.findIndex((problem) => problem.field === column);
      const fix = imported >= 0 ? problems.splice(imported, 1)[0]?.fix : undefined;
      add({
        field: column,
        level: 'error',
        message: `${column}: “${text}” is not a date; write it as YYYY-MM-DD${fix ? ` (${fix}?)` : ''}.`,
        ...(fix ? { fix } : {}),
      });
    }
  }

  const patch: ShipmentPatch = {};
  if (name !== (editable.name ?? '')) patch.name = name;
  for (const list of ['tags', 'viewers', 'assignees'] as const) {
    const next = splitList(value(list));
    if (!sameList(next, editable[list])) patch[list] = next;
  }
  const customFields: Record<string, string | null> = {};
  for (const field of context.customFields) {
    const next = value(`cf_${field.slug}`);
    const before = editable.custom_fields[field.slug] ?? '';
    if (next !== before) customFields[field.slug] = next === '' ? null : next;
  }
  if (Object.keys(customFields).length > 0) patch.custom_fields = customFields;
  if (Object.keys(patch).length === 0) return { problems, patch: null };

  // The contract's own limits (tags per shipment, characters per tag…) as a last check.
  const parsed = shipmentPatchSchema.safeParse(patch);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? 'name');
    add({ field: (field === 'custom_fields' ? `cf_${String(issue.path[1])}` : field) as EditField, level: 'error', message: `${issue.path.join('.')}: ${issue.message}.` });
  }
  return { problems, patch };
}

