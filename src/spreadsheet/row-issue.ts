import type { ColumnTarget } from './column-mapping';

/**
 * - error: the row cannot be submitted until it is fixed or excluded;
 * - warning: the row is submitted, with a note;
 * - auto_fix: a normalization that was applied (trim, case, synonym…), listed so nothing
 *   changes silently.
 */
export type IssueLevel = 'error' | 'warning' | 'auto_fix';

export type IssueCode =
  // errors
  | 'required'
  | 'invalid_tracking_type'
  | 'invalid_container_number'
  | 'check_digit'
  | 'invalid_carrier'
  | 'auto_carrier_not_container'
  | 'carrier_missing'
  | 'invalid_date'
  | 'invalid_email'
  | 'duplicate_reference'
  | 'too_long'
  // warnings
  | 'formula_like'
  | 'unknown_carrier'
  | 'carrier_mismatch'
  | 'tracking_type_mismatch'
  | 'list_separator'
  | 'date_serial'
  // auto-fixes
  | 'normalized'
  | 'carrier_inferred';

export interface RowIssue {
  /** 0-based index of the row in the review table (see ReviewTable.rowNumbers for the file's row). */
  row: number;
  column: ColumnTarget;
  level: IssueLevel;
  code: IssueCode;
  /** One sentence naming the column and the reason, ready to show. */
  message: string;
  /** A value for this cell the user can accept ("container", "MAEU", the corrected check digit…). */
  fix?: string;
  /** auto_fix only: the value as it was in the file. */
  original?: string;
}
