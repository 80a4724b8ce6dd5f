// What each row to send will do at the service, foreseen before Send. The service upserts by
// `reference`: a row whose reference is known updates that shipment, one whose reference is new
// creates one, and a row without a reference always creates one — a possible duplicate when its
// tracking number was sent before. Pure: the references and numbers already seen come in (from
// this browser's past jobs, the team history, the service's shipments), codes and counts go out.
import Papa from 'papaparse';

/** Per row: not sent (an error or excluded), creates, updates, no reference, no reference and a number sent before. */
export const FORESEE_NONE = 0;
export const FORESEE_CREATE = 1;
export const FORESEE_UPDATE = 2;
export const FORESEE_NO_REFERENCE = 3;
export const FORESEE_DUPLICATE = 4;
export type ForesightCode = 0 | 1 | 2 | 3 | 4;

/** One letter per code, as a job keeps the foresight of its rows as sent (c, u, n, d; '-' not foreseen). */
export const FORESIGHT_LETTERS = '-cund';

/**
 * The keys of one kind (references or tracking numbers) seen before. `sent`: when each was last
 * sent (epoch ms; 0 when not known), by this browser with an outcome that made a shipment, or by
 * the team (whose history keeps the rows as sent, not their outcomes); `confirmed`: keys of
 * shipments known to exist (an outcome `created`/`updated` here, or the service's own list);
 * `failed`: when this browser last saw a row of that key fail (it made no shipment).
 */
export interface SeenKind {
  sent: Map<string, number>;
  confirmed: Set<string>;
  failed: Map<string, number>;
}

export interface SeenKeys {
  references: SeenKind;
  trackingNumbers: SeenKind;
}

const emptyKind = (): SeenKind => ({ sent: new Map(), confirmed: new Set(), failed: new Map() });

export function emptySeenKeys(): SeenKeys {
  return { references: emptyKind(), trackingNumbers: emptyKind() };
}

/** A reference as the service compares it: trimmed. */
export const referenceKey = (reference: string): string => reference.trim();

/** A tracking number as compared: upper case, no spaces (the review normalizes container numbers the same way). */
export const trackingNumberKey = (number: string): string => number.replace(/\s+/g, '').toUpperCase();

function latest(map: Map<string, number>, key: string, at: number): void {
  if (key === '') return;
  const before = map.get(key);
  if (before === undefined || at > before) map.set(key, at);
}

function note(kind: SeenKind, key: string, at: number, confirmed: boolean): void {
  if (key === '') return;
  latest(kind.sent, key, at);
  if (confirmed) kind.confirmed.add(key);
}

/**
 * When a key was sent before, as far as is known: null when it never was, or when its only
 * sightings are no later than a row of it this browser saw fail (the team's copy of that same
 * row, sent before it failed). A confirmed key always counts.
 */
export function sentBefore(kind: SeenKind, key: string): number | null {
  const at = kind.sent.get(key);
  if (at === undefined) return null;
  if (kind.confirmed.has(key)) return at;
  const failedAt = kind.failed.get(key);
  return failedAt !== undefined && failedAt >= at ? null : at;
}

/**
 * Adds keys seen elsewhere to `into` (the latest time wins); returns `into`. `confirmed`: they are
 * shipments the service holds (its own list), not rows sent whose outcome is unknown (the team's).
 */
export function addSeen(
  into: SeenKeys,
  references: Iterable<readonly [string, number]>,
  trackingNumbers: Iterable<readonly [string, number]>,
  { confirmed = false }: { confirmed?: boolean } = {},
): SeenKeys {
  for (const [reference, at] of references) note(into.references, referenceKey(reference), at, confirmed);
  for (const [number, at] of trackingNumbers) note(into.trackingNumbers, trackingNumberKey(number), at, confirmed);
  return into;
}

/** Rows a past job sent: its CSV as sent (or JSON list), when, and which rows the service failed (made no shipment). */
export interface SentRows {
  sentAt: number;
  body: { format: 'csv'; csv: string } | { format: 'json'; requests: Record<string, unknown>[] };
  /** failed[i]: whether the service failed row i (it made no shipment); absent while its batch is unread. */
  failed?: readonly boolean[];
}

/**
 * Adds the references and numbers of rows this browser sent: a row whose outcome made a shipment
 * confirms its keys, a failed row records when it failed, a row whose batch is unread counts as sent.
 */
export function addSentRows(into: SeenKeys, sent: readonly SentRows[]): SeenKeys {
  for (const { sentAt, body, failed } of sent) {
    const rows: { reference: string; number: string }[] = [];
    if (body.format === 'json') {
      for (const request of body.requests) {
        rows.push({ reference: typeof request.reference === 'string' ? request.reference : '', number: typeof request.tracking_number === 'string' ? request.tracking_number : '' });
      }
    } else {
      const [header, ...data] = Papa.parse<string[]>(body.csv, { delimiter: ',', skipEmptyLines: true }).data;
      const referenceAt = header?.indexOf('reference') ?? -1;
      const numberAt = header?.indexOf('tracking_number') ?? -1;
      for (const row of data) rows.push({ reference: referenceAt < 0 ? '' : (row[referenceAt] ?? ''), number: numberAt < 0 ? '' : (row[numberAt] ?? '') });
    }
    rows.forEach((row, i) => {
      const reference = referenceKey(row.reference);
      const number = trackingNumberKey(row.number);
      if (failed?.[i]) {
        latest(into.references.failed, reference, sentAt);
        latest(into.trackingNumbers.failed, number, sentAt);
        return;
      }
      const confirmed = failed !== undefined;
      note(into.references, reference, sentAt, confirmed);
      note(into.trackingNumbers, number, sentAt, confirmed);
    });
  }
  return into;
}

/** One row foreseen, and when its reference or number was last sent (null: not seen, or not known when). */
export function foreseeRow(reference: string, trackingNumber: string, seen: SeenKeys): { code: ForesightCode; sentAt: number | null } {
  const ref = referenceKey(reference);
  if (ref !== '') {
    const at = sentBefore(seen.references, ref);
    return at === null ? { code: FORESEE_CREATE, sentAt: null } : { code: FORESEE_UPDATE, sentAt: at || null };
  }
  const at = sentBefore(seen.trackingNumbers, trackingNumberKey(trackingNumber));
  return at === null ? { code: FORESEE_NO_REFERENCE, sentAt: null } : { code: FORESEE_DUPLICATE, sentAt: at || null };
}

export interface ForesightCounts {
  creates: number;
  updates: number;
  withoutReference: number;
  /** Rows without a reference whose number was sent before (among withoutReference). */
  possibleDuplicates: number;
  /** Earliest and latest time the duplicates' numbers were sent, where known. */
  duplicatesSentFrom: number | null;
  duplicatesSentTo: number | null;
}

export interface Foresight {
  /** codes[row] for every row of the table; FORESEE_NONE for rows not sent. */
  codes: Uint8Array;
  counts: ForesightCounts;
}

/**
 * Foresees every row in `rows` (the rows to send, by table index) of a table of `rowCount` rows,
 * reading each row's reference and tracking number with the readers given.
 */
export function foreseeRows(
  columns: { reference: (row: number) => string; trackingNumber: (row: number) => string },
  rows: readonly number[],
  rowCount: number,
  seen: SeenKeys,
): Foresight {
  const codes = new Uint8Array(rowCount);
  const counts: ForesightCounts = { creates: 0, updates: 0, withoutReference: 0, possibleDuplicates: 0, duplicatesSentFrom: null, duplicatesSentTo: null };
  for (const row of rows) {
    const reference = columns.reference(row);
    // Only a row without a reference is foreseen by its number: the number is read for those alone.
    const { code, sentAt } = foreseeRow(reference, referenceKey(reference) === '' ? columns.trackingNumber(row) : '', seen);
    codes[row] = code;
    if (code === FORESEE_CREATE) counts.creates++;
    else if (code === FORESEE_UPDATE) counts.updates++;
    else {
      counts.withoutReference++;
      if (code === FORESEE_DUPLICATE) {
        counts.possibleDuplicates++;
        if (sentAt !== null) {
          counts.duplicatesSentFrom = Math.min(counts.duplicatesSentFrom ?? sentAt, sentAt);
          counts.duplicatesSentTo = Math.max(counts.duplicatesSentTo ?? sentAt, sentAt);
        }
      }
    }
  }
  return { codes, counts };
}

const day = (at: number) => new Date(at).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** Which rows a part of the sentence counts: the review grid's foresight filters. */
export type ForesightPartKey = 'creates' | 'updates' | 'no_reference' | 'possible_duplicates';

/**
 * The counts as the parts of one sentence, each naming its rows: "1,200 create", "340 update
 * existing shipments", "15 without a reference", "3 of them already sent on 12 Nov" (only when
 * there are some). Parts are joined by " · ", the duplicates by ", " (describeForesight).
 */
export function foresightParts(counts: ForesightCounts): { key: ForesightPartKey; text: string }[] {
  const n = (count: number) => count.toLocaleString('en');
  const parts: { key: ForesightPartKey; text: string }[] = [
    { key: 'creates', text: `${n(counts.creates)} create` },
    { key: 'updates', text: `${n(counts.updates)} update existing ${counts.updates === 1 ? 'shipment' : 'shipments'}` },
    { key: 'no_reference', text: `${n(counts.withoutReference)} without a reference` },
  ];
  if (counts.possibleDuplicates > 0) {
    const from = counts.duplicatesSentFrom;
    const to = counts.duplicatesSentTo;
    const when = from === null || to === null ? 'already sent before' : day(from) === day(to) ? `already sent on ${day(to)}` : `already sent between ${day(from)} and ${day(to)}`;
    parts.push({ key: 'possible_duplicates', text: `${n(counts.possibleDuplicates)} of them ${when}` });
  }
  return parts;
}

/** "1,200 create · 340 update existing shipments · 15 without a reference, 3 of them already sent on 12 Nov". */
export function describeForesight(counts: ForesightCounts): string {
  return foresightParts(counts)
    .map((part, i) => (i === 0 ? '' : part.key === 'possible_duplicates' ? ', ' : ' · ') + part.text)
    .join('');
}
