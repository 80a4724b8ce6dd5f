import { z } from 'zod';
import { FILE_HEADERS, type FileHeader, customFieldSlug, isDateValue } from '../contract/import-file';
import { AUTO_CARRIER, CARRIER_FORMAT_RULE, NAME_MAX_LENGTH } from '../contract/shipment-request';
import { OCEAN_CARRIERS, carrierFromName, findCarrierByScac, inferCarrierFromNumber } from './carriers';
import type { ColumnTarget } from './column-mapping';
import { closest } from './edit-distance';
import { compactContainerNumber, looksLikeContainerNumber, validateContainerNumber } from './iso6346';
import { formatCount } from './read-error';
import type { RowIssue } from './row-issue';
import { cellLength } from './table-limits';

/** Positions of the spec's columns in a review row: FILE_HEADERS order, custom fields after. */
const position = (header: FileHeader): number => FILE_HEADERS.indexOf(header);
const TRACKING_NUMBER = position('tracking_number');
const TRACKING_TYPE = position('tracking_type');
const REFERENCE = position('reference');
const CARRIER = position('carrier');
const NAME = position('name');
const VIEWERS = position('viewers');
const TAGS = position('tags');
const ASSIGNEES = position('assignees');
/** The first custom field column. */
const CUSTOM_FIELDS = FILE_HEADERS.length;

/** Zod's own e-mail pattern (the one z.email() and the sandbox use), without a parse per cell. */
const EMAIL = z.regexes.email;

const TYPE_SYNONYMS = new Map<string, string>([
  ['container', 'container'], ['containers', 'container'], ['cntr', 'container'], ['ctnr', 'container'], ['ctr', 'container'],
  ['containernumber', 'container'], ['cont', 'container'],
  ['billoflading', 'bill_of_lading'], ['bl', 'bill_of_lading'], ['bol', 'bill_of_lading'], ['mbl', 'bill_of_lading'],
  ['masterbl', 'bill_of_lading'], ['masterbilloflading', 'bill_of_lading'], ['blnumber', 'bill_of_lading'],
  ['booking', 'booking'], ['bkg', 'booking'], ['bk', 'booking'], ['bookingnumber', 'booking'], ['bookingno', 'booking'],
]);

const SCACS = OCEAN_CARRIERS.map((carrier) => carrier.scac);

/**
 * Custom fields the service types as dates (DESIGN §3: `eta`; the others are text). It ignores a
 * value of the wrong type, so here that is an error rather than data lost without a word.
 */
const DATE_FIELD_SLUGS: ReadonlySet<string> = new Set(['eta']);

/** Custom field slugs whose values are likely dates, so that a bare Excel serial there is suspicious. */
const DATE_SLUG_PART = /(^|[_-])(date|day|eta|etd|ata|atd|deadline|due|cutoff)([_-]|$)/i;

/**
 * Separators people put in numbers. Module constants: a regular expression literal in a function
 * is a new object each time it is evaluated, which adds up over a million rows.
 */
const SEPARATOR = /[\s\-./]/;
const SEPARATORS = /[\s\-./]/g;
const TYPE_SEPARATORS = /[\s_\-./]/g;
const SIGNED_NUMBER = /^[+-]?(\d|\.\d)[\d.,]*$/;

export interface RowValidationContext {
  columns: readonly ColumnTarget[];
  /** Per column: a custom field that probably holds dates (Excel serials there are suspicious). */
  dateColumns: readonly boolean[];
  /** Per column: a custom field the service types as a date. */
  typedDateColumns: readonly boolean[];
  maxCellLength: number;
}

/** Columns of a review table: every spec header (in order), then the mapped custom fields. */
export function reviewColumns(customFieldTargets: readonly ColumnTarget[]): ColumnTarget[] {
  return [...FILE_HEADERS, ...customFieldTargets];
}

export function createValidationContext(columns: readonly ColumnTarget[], maxCellLength: number): RowValidationContext {
  const dateColumns = columns.map((column) => DATE_SLUG_PART.test(customFieldSlug(column) ?? ''));
  const typedDateColumns = columns.map((column) => DATE_FIELD_SLUGS.has(customFieldSlug(column) ?? ''));
  return { columns, dateColumns, typedDateColumns, maxCellLength };
}

/**
 * Issues of the row being validated. One list reused for every row (validateRow is synchronous
 * and copies it out) so that a clean row allocates nothing: this runs a million times per file.
 */
const pending: RowIssue[] = [];
let pendingCount = 0;

function report(issue: RowIssue): void {
  pending[pendingCount++] = issue;
}

/** The contract's SCAC shape (exactly 4 capital letters or digits), without a regular expression per row. */
function isScacShape(value: string): boolean {
  if (value.length !== 4) return false;
  for (let i = 0; i < 4; i++) {
    const code = value.charCodeAt(i);
    if ((code < 65 || code > 90) && (code < 48 || code > 57)) return false;
  }
  return true;
}

/** A value inside a message: quoted, and shortened so a 30,000-character cell stays readable. */
function quote(value: string): string {
  return `“${value.length > 40 ? `${value.slice(0, 39)}…` : value}”`;
}

function needsTrim(value: string): boolean {
  if (value.length === 0) return false;
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  return first <= 32 || last <= 32 || first >= 0x80 || last >= 0x80;
}

function isFormulaLike(value: string): boolean {
  const first = value.charCodeAt(0);
  // = + - @ start a formula in spreadsheet programs; signed numbers ("-12.5") are just numbers.
  if (first !== 61 && first !== 43 && first !== 45 && first !== 64) return false;
  return !SIGNED_NUMBER.test(value);
}

/** /^\d{5}$/, by character codes: it is asked of every cell of a date column. */
function isFiveDigits(value: string): boolean {
  if (value.length !== 5) return false;
  for (let i = 0; i < 5; i++) {
    const code = value.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

function excelSerialToDate(serial: number): string {
  return new Date(Date.UTC(1899, 11, 30) + serial * 86400000).toISOString().slice(0, 10);
}

function describeChange(column: ColumnTarget, original: string, value: string): string {
  const reasons: string[] = [];
  const trimmed = original.trim();
  if (trimmed !== original) reasons.push('spaces around it removed');
  if (trimmed !== value) {
    if (trimmed.toUpperCase() === value) reasons.push('upper-cased');
    else if (trimmed.toLowerCase() === value) reasons.push('lower-cased');
    else if (column === 'tracking_type') reasons.push(`${quote(trimmed)} means ${value}`);
    else reasons.push(trimmed.replace(SEPARATORS, '') === value ? 'separators removed' : 'separators removed, upper-cased');
  }
  return `${column}: changed ${quote(original)} to ${quote(value)} (${reasons.join(', ')}).`;
}

/**
 * Verdicts on date cells: a date column holds few distinct dates (a shipment's ETA is shared by
 * many rows), and the check (a pattern and a Date) is the costliest of a clean row. Bounded.
 */
const dateCells = new Map<string, boolean>();
const DATE_CELLS_KEPT = 10_000;

function isDate(value: string): boolean {
  const known = dateCells.get(value);
  if (known !== undefined) return known;
  const verdict = isDateValue(value);
  if (value.length <= 40) {
    if (dateCells.size >= DATE_CELLS_KEPT) dateCells.clear();
    dateCells.set(value, verdict);
  }
  return verdict;
}

/**
 * Verdicts on whole viewers/assignees cells: the same few team members fill these columns, so
 * most cells repeat, and the e-mail pattern is the costliest check of a row. Bounded.
 */
const emailCells = new Map<string, string | null>();
const EMAIL_CELLS_KEPT = 10_000;

/** Forgets the verdicts kept on date and e-mail cells (a file reader's warm-up leaves none behind). */
export function forgetCellVerdicts(): void {
  dateCells.clear();
  emailCells.clear();
}

function firstInvalidEmail(value: string): string | undefined {
  const known = emailCells.get(value);
  if (known !== undefined) return known ?? undefined;
  let invalid: string | null = null;
  for (const part of value.includes(',') ? value.split(',') : [value]) {
    const email = part.trim();
    if (email && !EMAIL.test(email)) {
      invalid = email;
      break;
    }
  }
  if (value.length <= 200) {
    if (emailCells.size >= EMAIL_CELLS_KEPT) emailCells.clear();
    emailCells.set(value, invalid);
  }
  return invalid ?? undefined;
}

function checkEmails(row: number, column: ColumnTarget, value: string): void {
  const invalid = firstInvalidEmail(value);
  if (invalid === undefined) return;
  const loose = value.split(/[,;\s]+/).filter(Boolean);
  if (loose.length > 1 && loose.every((email) => EMAIL.test(email))) {
    report({
      row, column, level: 'error', code: 'invalid_email',
      message: `${column}: separate e-mail addresses with commas.`,
      fix: loose.join(', '),
    });
    return;
  }
  const valid = value.split(',').map((part) => part.trim()).filter((email) => email && EMAIL.test(email));
  report({
    row, column, level: 'error', code: 'invalid_email',
    message: `${column}: ${quote(invalid)} is not an e-mail address.`,
    fix: valid.join(', '),
  });
}

/**
 * Checks (and normalizes) the carrier; returns true when it filled an empty carrier in from the
 * number, which the caller must not list a second time as a plain normalization.
 */
function checkCarrier(row: number, type: string, trackingNumber: string, out: string[]): boolean {
  const carrier = out[CARRIER] ?? '';
  const isDocument = type === 'bill_of_lading' || type === 'booking';
  if (carrier === '') {
    if (!isDocument || trackingNumber === '') return false;
    const document = type === 'booking' ? 'booking' : 'bill of lading';
    const inferred = inferCarrierFromNumber(trackingNumber);
    if (inferred) {
      // The service refuses a B/L or booking without carrier (CARRIER_SCAC_REQUIRED): fill it in
      // where the number says it, visibly, so that it is sent explicitly.
      out[CARRIER] = inferred;
      report({
        row, column: 'carrier', level: 'auto_fix', code: 'carrier_inferred',
        message: `carrier: empty; set to ${inferred} (${findCarrierByScac(inferred)?.name ?? inferred}), the SCAC the number starts with, because the service requires a carrier for a ${document}.`,
        original: '',
      });
      return true;
    }
    report({ row, column: 'carrier', level: 'error', code: 'carrier_missing', message: `carrier: required for a ${document}, and the number does not start with a known SCAC.` });
    return false;
  }

  const upper = isScacShape(carrier) ? carrier : carrier.toUpperCase();
  if (upper === AUTO_CARRIER) {
    out[CARRIER] = upper;
    if (isDocument) {
      const inferred = inferCarrierFromNumber(trackingNumber);
      report({
        row, column: 'carrier', level: 'error', code: 'auto_carrier_not_container',
        message: 'carrier: AUTO is allowed only when tracking_type is container.',
        ...(inferred ? { fix: inferred } : {}),
      });
    }
    return false;
  }
  const named = isScacShape(upper) && findCarrierByScac(upper) ? null : carrierFromName(carrier);
  if (named) {
    // "MSC", "HL", "Maersk", "OOCL": a name or abbreviation, never rewritten without the user.
    report({ row, column: 'carrier', level: 'error', code: 'invalid_carrier', message: `carrier: ${quote(carrier)} is a name, not a SCAC; ${named.name} → ${named.scac}.`, fix: named.scac });
    return false;
  }
  if (!isScacShape(upper)) {
    report({ row, column: 'carrier', level: 'error', code: 'invalid_carrier', message: `carrier: ${quote(carrier)} is not a SCAC code: ${CARRIER_FORMAT_RULE}.` });
    return false;
  }
  out[CARRIER] = upper;
  if (!findCarrierByScac(upper)) {
    // The service's list of carriers is longer than this console's: it decides.
    const near = closest(upper, SCACS, 1);
    report({
      row, column: 'carrier', level: 'warning', code: 'unknown_carrier',
      message: `carrier: ${upper} is not on this console's list of ocean carriers; the service refuses a carrier it does not support${near ? `. Did you mean ${near}?` : '.'}`,
      ...(near ? { fix: near } : {}),
    });
    return false;
  }
  if (type === 'bill_of_lading') {
    const prefix = inferCarrierFromNumber(trackingNumber);
    if (prefix && prefix !== upper) {
      report({
        row, column: 'carrier', level: 'warning', code: 'carrier_mismatch',
        message: `carrier: the bill of lading starts with ${prefix} (${findCarrierByScac(prefix)?.name ?? prefix}), not ${upper}.`,
        fix: prefix,
      });
    }
  }
  return false;
}

/**
 * Normalizes one row (raw → out, same column order) and returns its issues, or undefined when
 * it has none. Pure and allocation-free for a clean row: it runs for every row of a file.
 * Duplicate references need the whole table; the review table adds those.
 */
export function validateRow(row: number, raw: readonly string[], out: string[], context: RowValidationContext): RowIssue[] | undefined {
  pendingCount = 0;
  const { columns, maxCellLength } = context;
  const columnCount = columns.length;

  for (let c = 0; c < columnCount; c++) {
    const value = raw[c] ?? '';
    out[c] = needsTrim(value) ? value.trim() : value;
  }

  // tracking_type first: the number's checks depend on it.
  let type = out[TRACKING_TYPE] ?? '';
  const number = out[TRACKING_NUMBER] ?? '';
  if (type !== 'container' && type !== 'bill_of_lading' && type !== 'booking') {
    const key = type.toLowerCase().replace(TYPE_SEPARATORS, '');
    const synonym = TYPE_SYNONYMS.get(key);
    if (synonym) {
      out[TRACKING_TYPE] = type = synonym;
    } else {
      const shape = looksLikeContainerNumber(compactContainerNumber(number)) ? 'container' : undefined;
      const near = key ? closest(key, TYPE_SYNONYMS.keys(), 2) : null;
      const fix = near ? TYPE_SYNONYMS.get(near) : shape;
      if (type === '') {
        report({
          row, column: 'tracking_type', level: 'error', code: 'required',
          message: shape ? 'tracking_type: empty; the number looks like a container number.' : 'tracking_type: empty.',
          ...(shape ? { fix: shape } : {}),
        });
      } else {
        report({
          row, column: 'tracking_type', level: 'error', code: 'invalid_tracking_type',
          message: `tracking_type: ${quote(type)} is not container, bill_of_lading or booking${fix ? `; did you mean ${fix}?` : '.'}`,
          ...(fix ? { fix } : {}),
        });
      }
    }
  }

  if (number === '') {
    report({ row, column: 'tracking_number', level: 'error', code: 'required', message: 'tracking_number: empty.' });
  } else if (type === 'container') {
    const compact = looksLikeContainerNumber(number) ? number : compactContainerNumber(number);
    out[TRACKING_NUMBER] = compact;
    const check = validateContainerNumber(compact);
    if (!check.ok && check.reason === 'check_digit') {
      report({
        row, column: 'tracking_number', level: 'error', code: 'check_digit',
        message: `tracking_number: check digit should be ${check.expected}.`,
        fix: compact.slice(0, 10) + String(check.expected),
      });
    } else if (!check.ok) {
      report({
        row, column: 'tracking_number', level: 'error', code: 'invalid_container_number',
        message: `tracking_number: ${quote(number)} is not a container number (4 letters ending in U, J or Z, then 7 digits).`,
      });
    }
  } else if ((type === 'bill_of_lading' || type === 'booking') && number.length >= 11 && number.length <= 16) {
    const candidate = number.length === 11 ? number.toUpperCase() : SEPARATOR.test(number) ? compactContainerNumber(number) : '';
    if (validateContainerNumber(candidate).ok) {
      report({
        row, column: 'tracking_type', level: 'warning', code: 'tracking_type_mismatch',
        message: `tracking_type: ${quote(number)} is a container number; should the type be container?`,
        fix: 'container',
      });
    }
  }

  const carrierInferred = checkCarrier(row, type, out[TRACKING_NUMBER] ?? '', out);

  const viewers = out[VIEWERS] ?? '';
  if (viewers) checkEmails(row, 'viewers', viewers);
  const assignees = out[ASSIGNEES] ?? '';
  if (assignees) checkEmails(row, 'assignees', assignees);

  const tags = out[TAGS] ?? '';
  if (tags && (tags.includes(';') || tags.includes('|'))) {
    const split = tags.split(/[,;|]/).map((tag) => tag.trim()).filter(Boolean);
    report({
      row, column: 'tags', level: 'warning', code: 'list_separator',
      message: `tags: separated by commas only; split ${quote(tags)} into ${formatCount(split.length)} tags?`,
      fix: split.join(', '),
    });
  }

  for (let c = 0; c < columnCount; c++) {
    const value = out[c] ?? '';
    const column = columns[c] ?? 'name';
    const length = cellLength(value); // the reader keeps an over-long cell shortened
    const limit = c === NAME ? Math.min(NAME_MAX_LENGTH, maxCellLength) : maxCellLength;
    if (length > limit) {
      report({
        row, column, level: 'error', code: 'too_long',
        message: `${column}: ${formatCount(length)} characters; the limit is ${formatCount(limit)}.`,
      });
    }
    if (c === TRACKING_NUMBER || c === REFERENCE || c === NAME || c === TAGS || c >= CUSTOM_FIELDS) {
      if (value && isFormulaLike(value)) {
        report({
          row, column, level: 'warning', code: 'formula_like',
          message: `${column}: starts with “${value.charAt(0)}”; it is kept as text, and escaped in downloads.`,
        });
      }
      const serial = context.dateColumns[c] && isFiveDigits(value) ? Number(value) : 0;
      const serialDate = serial >= 20000 && serial <= 80000 ? excelSerialToDate(serial) : undefined;
      if (context.typedDateColumns[c] && value !== '' && !isDate(value)) {
        report({
          row, column, level: 'error', code: 'invalid_date',
          message: serialDate
            ? `${column}: ${value} is not a date, but looks like an Excel date (${serialDate}); the service ignores a value that is not a date.`
            : `${column}: ${quote(value)} is not a date (YYYY-MM-DD); the service ignores a value that is not a date.`,
          ...(serialDate ? { fix: serialDate } : {}),
        });
      } else if (serialDate) {
        report({ row, column, level: 'warning', code: 'date_serial', message: `${column}: ${value} looks like an Excel date (${serialDate}).`, fix: serialDate });
      }
    }
    const original = raw[c] ?? '';
    if (value !== original && !(c === CARRIER && carrierInferred)) {
      report({ row, column, level: 'auto_fix', code: 'normalized', message: describeChange(column, original, value), original });
    }
  }
  return pendingCount === 0 ? undefined : pending.slice(0, pendingCount);
}
