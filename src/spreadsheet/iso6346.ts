/**
 * ISO 6346 container numbers: owner code (3 letters), category (U, J or Z), 6-digit serial and
 * a check digit. The check digit catches most typing mistakes before a number is sent to
 * tracking, where a wrong digit would only show up later as "not found".
 */

/**
 * Letter values by character code: they start at 10 and skip multiples of 11 (11, 22, 33), as
 * the standard says. A table, because this runs for every container row of a file.
 */
const LETTER_VALUES = (() => {
  const values = new Int8Array(91);
  let value = 10;
  for (let code = 65; code <= 90; code++) {
    if (value % 11 === 0) value++;
    values[code] = value++;
  }
  return values;
})();

function isLetter(code: number): boolean {
  return code >= 65 && code <= 90;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Owner code, category and serial at the start of value; the length is the caller's to check. */
function hasFirstTen(value: string): boolean {
  const category = value.charCodeAt(3);
  if (!isLetter(value.charCodeAt(0)) || !isLetter(value.charCodeAt(1)) || !isLetter(value.charCodeAt(2))) return false;
  if (category !== 85 && category !== 74 && category !== 90) return false; // U, J, Z
  for (let i = 4; i < 10; i++) if (!isDigit(value.charCodeAt(i))) return false;
  return true;
}

function checkDigitOf(value: string): number {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const code = value.charCodeAt(i);
    sum += (i < 4 ? (LETTER_VALUES[code] ?? 0) : code - 48) << i;
  }
  // A remainder of 10 is written as 0 (owners avoid such serials, but they exist).
  return (sum % 11) % 10;
}

/** The check digit of the first ten characters ("CSQU305438" → 3), or null if they are not owner code + category + serial. */
export function containerCheckDigit(firstTen: string): number | null {
  return firstTen.length === 10 && hasFirstTen(firstTen) ? checkDigitOf(firstTen) : null;
}

export type ContainerNumberCheck =
  | { ok: true }
  | { ok: false; reason: 'format' }
  | { ok: false; reason: 'check_digit'; expected: number };

const VALID: ContainerNumberCheck = Object.freeze({ ok: true });
const BAD_FORMAT: ContainerNumberCheck = Object.freeze({ ok: false, reason: 'format' });

/** Checks an already compacted number (upper case, no spaces or dashes; see compactContainerNumber). */
export function validateContainerNumber(value: string): ContainerNumberCheck {
  if (value.length !== 11 || !hasFirstTen(value) || !isDigit(value.charCodeAt(10))) return BAD_FORMAT;
  const expected = checkDigitOf(value);
  return value.charCodeAt(10) - 48 === expected ? VALID : { ok: false, reason: 'check_digit', expected };
}

/** "msku 123456-7" → "MSKU1234567": people write container numbers with spaces, dashes, dots and slashes. */
export function compactContainerNumber(value: string): string {
  return value.replace(/[\s\-./]/g, '').toUpperCase();
}

/** True when the value has the shape of a container number (whatever its check digit). */
export function looksLikeContainerNumber(compacted: string): boolean {
  return compacted.length === 11 && hasFirstTen(compacted) && isDigit(compacted.charCodeAt(10));
}
