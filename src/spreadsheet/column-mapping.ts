import {
  FILE_HEADERS,
  REQUIRED_FILE_HEADERS,
  customFieldHeader,
  customFieldSlug,
  isFileHeader,
} from '../contract/import-file';
import type { FileHeader } from '../contract/import-file';
import { closest } from './edit-distance';
import { formatCount } from './read-error';

/** Where a source column goes: a spec header or a `cf_<slug>` custom field header. */
export type ColumnTarget = FileHeader | `cf_${string}`;

/**
 * How one source column is mapped.
 * - exact: the header is the target, character for character;
 * - suggested: a near miss or synonym, applied but shown with its reason for the user to confirm;
 * - chosen: set by the user;
 * - remembered: as a mapping made by hand for a file with the same headers (remembered-mapping.ts);
 * - unknown, unnamed, duplicate: not imported because the header means nothing to the service,
 *   is empty, or names a target another column already has;
 * - ignored: not imported because the user said so.
 */
export interface ColumnMappingEntry {
  /** 0-based index of the source column. */
  column: number;
  /** The header as written in the file (may be empty). */
  header: string;
  target: ColumnTarget | null;
  match: 'exact' | 'suggested' | 'chosen' | 'remembered' | 'unknown' | 'unnamed' | 'duplicate' | 'ignored';
  /** Why it was suggested, remembered or not imported, as a sentence; null for exact and chosen. */
  reason: string | null;
  /**
   * What the user should look at: a cf_ column whose custom field the service does not list, or a
   * remembered choice that disagrees with the header's exact name.
   */
  warning: string | null;
}

export type ColumnMapping = readonly ColumnMappingEntry[];

export interface ColumnMappingOptions {
  /** Slugs of the workspace's custom fields (GET /api/v1/custom_fields), when the service lists them. */
  customFieldSlugs?: readonly string[];
}

/** Names people give the spec's columns, keyed by headerKey(). */
const SYNONYMS: Record<FileHeader, readonly string[]> = {
  tracking_number: [
    'trackingnumber', 'trackingno', 'trackingnr', 'tracking', 'trackingid', 'number',
    'container', 'containerno', 'containernumber', 'containernr', 'containerid', 'cntr', 'cntrno', 'ctnr', 'ctnrno',
    'bl', 'blno', 'blnumber', 'bol', 'bolnumber', 'billoflading', 'billofladingnumber', 'billofladingno', 'mbl', 'mblno', 'mblnumber', 'masterbl',
    'booking', 'bookingno', 'bookingnumber', 'bookingref', 'bookingreference', 'bkg', 'bkgno', 'bkgnumber',
  ],
  tracking_type: ['trackingtype', 'type', 'numbertype', 'idtype', 'identifiertype', 'trackingkind', 'kind', 'documenttype'],
  reference: [
    'reference', 'ref', 'refno', 'refnumber', 'referenceno', 'referencenumber', 'yourreference', 'yourref', 'customerreference',
    'customerref', 'clientreference', 'shipmentreference', 'shipmentref', 'shipmentid', 'externalid', 'externalreference',
  ],
  carrier: [
    'carrier', 'scac', 'carrierscac', 'scaccode', 'carriercode', 'carriername', 'shippingline', 'line', 'oceancarrier',
    'steamshipline', 'ssl', 'liner', 'shippingcompany',
  ],
  name: ['name', 'shipmentname', 'description', 'title', 'label', 'shipment'],
  viewers: ['viewers', 'viewer', 'sharewith', 'sharedwith', 'watchers', 'followers', 'viewonly'],
  tags: ['tags', 'tag', 'labels', 'categories', 'keywords'],
  assignees: ['assignees', 'assignee', 'assignedto', 'owner', 'owners', 'responsible', 'assigned'],
};

/** "Carrier SCAC ", "carrier_scac" and "Carrier-Scac" all become "carrierscac". */
function headerKey(header: string): string {
  return header.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const synonymTargets = new Map<string, FileHeader>();
for (const target of FILE_HEADERS) for (const synonym of SYNONYMS[target]) synonymTargets.set(synonym, target);

interface HeaderMatch {
  target: ColumnTarget;
  match: 'exact' | 'suggested';
  reason: string | null;
  /** How sure the match is, to settle two columns wanting one target. */
  strength: number;
}

function sameNameReason(header: string, target: string): string {
  if (header.trim() === target) return `“${header}” has spaces around ${target}.`;
  if (header.trim().toLowerCase() === target) return `“${header}” differs from ${target} only in case.`;
  return `“${header}” is ${target} written differently.`;
}

function slugOf(text: string): string {
  return text.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
}

function matchHeader(header: string, slugs: ReadonlyMap<string, string>): HeaderMatch | null {
  if (isFileHeader(header)) return { target: header, match: 'exact', reason: null, strength: 4 };
  if (customFieldSlug(header) !== null) return { target: header as ColumnTarget, match: 'exact', reason: null, strength: 4 };
  const trimmed = header.trim();
  if (!trimmed) return null;

  const key = headerKey(trimmed);
  if (/^cf[_\s-]/i.test(trimmed)) {
    // "cf_PO Number", "CF_po_number ": meant as a custom field, written loosely.
    const rest = trimmed.slice(3);
    const slug = slugs.get(headerKey(rest)) ?? slugOf(rest);
    if (slug) {
      const target = customFieldHeader(slug);
      return { target: target as ColumnTarget, match: 'suggested', reason: `“${header}” looks like the custom field header ${target}.`, strength: 3 };
    }
  }

  for (const target of FILE_HEADERS) {
    if (key === headerKey(target)) return { target, match: 'suggested', reason: sameNameReason(header, target), strength: 3 };
  }
  const synonym = synonymTargets.get(key);
  if (synonym) return { target: synonym, match: 'suggested', reason: `“${trimmed}” is a usual name for ${synonym}.`, strength: 2 };
  const slug = slugs.get(key);
  if (slug) {
    const target = customFieldHeader(slug);
    return { target: target as ColumnTarget, match: 'suggested', reason: `“${trimmed}” matches the custom field ${slug}.`, strength: 2 };
  }
  if (key.length >= 5) {
    const near = closest(key, synonymTargets.keys(), key.length >= 9 ? 2 : 1);
    const target = near === null ? undefined : synonymTargets.get(near);
    if (target) return { target, match: 'suggested', reason: `“${trimmed}” looks like a misspelling of ${target}.`, strength: 1 };
  }
  return null;
}

export type HeaderMatcher = (header: string) => HeaderMatch | null;

/**
 * A function giving the target a header matches, exactly or as a suggestion, or null. It
 * remembers its answers: files repeat headers, and header detection asks about many cells.
 */
export function headerMatcher(customFieldSlugs: readonly string[] = []): HeaderMatcher {
  const slugs = new Map(customFieldSlugs.map((slug) => [headerKey(slug), slug]));
  const known = new Map<string, HeaderMatch | null>();
  return (header) => {
    let found = known.get(header);
    if (found === undefined) {
      found = matchHeader(header, slugs);
      known.set(header, found);
    }
    return found;
  };
}

/** "A", "B", …, "Z", "AA": how people name columns in spreadsheets. */
export function columnLetter(column: number): string {
  let letters = '';
  for (let n = column + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** The warning of a column mapped to a cf_ header the service does not list, else null. */
export function customFieldWarning(target: ColumnTarget | null, options: ColumnMappingOptions): string | null {
  const slug = target === null ? null : customFieldSlug(target);
  if (slug === null || !options.customFieldSlugs || options.customFieldSlugs.includes(slug)) return null;
  return `The service has no custom field “${slug}”; this column would be ignored there.`;
}

/**
 * Maps every column of a header row: exact names automatically, near misses and synonyms as
 * suggestions with their reason, the rest ignored. A target goes to one column only: the
 * strongest match (then the leftmost) wins, and the others are ignored with the reason.
 */
export function suggestColumnMapping(header: readonly string[], options: ColumnMappingOptions = {}): ColumnMapping {
  const match = headerMatcher(options.customFieldSlugs);
  const matches = header.map(match);
  const winner = new Map<ColumnTarget, number>();
  matches.forEach((found, column) => {
    if (!found) return;
    const current = winner.get(found.target);
    if (current === undefined || found.strength > (matches[current]?.strength ?? 0)) winner.set(found.target, column);
  });

  return header.map((name, column): ColumnMappingEntry => {
    const found = matches[column];
    if (!found) {
      return name.trim()
        ? { column, header: name, target: null, match: 'unknown', reason: `“${name.trim()}” is not a column the service knows.`, warning: null }
        : { column, header: name, target: null, match: 'unnamed', reason: 'The column has no header.', warning: null };
    }
    const taken = winner.get(found.target);
    if (taken !== column && taken !== undefined) {
      const reason = `${found.target} is already mapped from column ${columnLetter(taken)}.`;
      return { column, header: name, target: null, match: 'duplicate', reason, warning: null };
    }
    return { column, header: name, target: found.target, match: found.match, reason: found.reason, warning: customFieldWarning(found.target, options) };
  });
}

/**
 * The user's choice for one column. A target already used elsewhere moves here, and the
 * column it left is ignored, so a target is never mapped twice.
 */
export function setColumnTarget(
  mapping: ColumnMapping,
  column: number,
  target: ColumnTarget | null,
  options: ColumnMappingOptions = {},
): ColumnMapping {
  return mapping.map((entry) => {
    if (entry.column === column) {
      return target === null
        ? { ...entry, target: null, match: 'ignored', reason: 'Ignored by you.', warning: null }
        : { ...entry, target, match: 'chosen', reason: null, warning: customFieldWarning(target, options) };
    }
    if (target !== null && entry.target === target) {
      return { ...entry, target: null, match: 'duplicate', reason: `${target} moved to column ${columnLetter(column)}.`, warning: null };
    }
    return entry;
  });
}

/** Required spec headers that no column is mapped to, in spec order. */
export function missingRequiredTargets(mapping: ColumnMapping): FileHeader[] {
  const mapped = new Set(mapping.map((entry) => entry.target));
  return REQUIRED_FILE_HEADERS.filter((target) => !mapped.has(target));
}

function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** "Map a column to tracking_type to go on.", or null when nothing required is missing. */
export function describeMissingTargets(mapping: ColumnMapping): string | null {
  const missing = missingRequiredTargets(mapping);
  if (missing.length === 0) return null;
  return missing.length === 1 ? `Map a column to ${listOf(missing)} to go on.` : `Map columns to ${listOf(missing)} to go on.`;
}

const IGNORED_PHRASES: [ColumnMappingEntry['match'], string, string][] = [
  ['unknown', 'unknown column', 'unknown columns'],
  ['unnamed', 'column without a header', 'columns without a header'],
  ['duplicate', 'repeated column', 'repeated columns'],
];

/**
 * "4,990 unknown columns ignored." or "3 unknown columns and 1 column without a header ignored.",
 * or null when there is none. Never a blocker: a summary for the mapping step (columns the user
 * chose to ignore are not counted; they know).
 */
export function summarizeIgnoredColumns(mapping: ColumnMapping): string | null {
  const parts: string[] = [];
  for (const [match, one, many] of IGNORED_PHRASES) {
    const count = mapping.filter((entry) => entry.match === match).length;
    if (count) parts.push(`${formatCount(count)} ${count === 1 ? one : many}`);
  }
  return parts.length ? `${listOf(parts)} ignored.` : null;
}
