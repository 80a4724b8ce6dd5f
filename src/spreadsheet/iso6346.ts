/**
 * ISO 6346 container numbers: owner code (3 letters), category (U, J or Z), 6-digit serial and
 * a check digit. The check digit catches most typing mistakes before a number is sent to
 * tracking, where a wrong digit would only show up later as "not found".
 */

const FORMAT = /^[A-Z]{3}[UJZ]\d{7}$/;
const FIRST_TEN = /^[A-Z]{3}[UJZ]\d{6}$/;

/** Letter values start at 10 and skip multiples of 11 (11, 22, 33), as the standard says. */
const LETTER_VALUES: ReadonlyMap<string, number> = (() => {
  const values = new Map<string, number>();
  let value = 10;
  for (let code = 65; code <= 90; code++) {
    if (value % 11 === 0) value++;
    values.set(String.fromCharCode(code), value);
    value++;
  }
  return values;
})();

/** The check digit of the first ten characters ("CSQU305438" → 3), or null if they are not owner code + category + serial. */
export function containerCheckDigit(firstTen: string): number | null {
  if (!FIRST_TEN.test(firstTen)) return null;
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const char = firstTen.charAt(i);
    const value = i < 4 ? (LETTER_VALUES.get(char) ?? 0) : char.charCodeAt(0) - 48;
    sum += value * 2 ** i;
  }
  // A remainder of 10 is written as 0 (such serials are avoided by owners, but they exist).
  return (sum % 11) % 10;
}

export type ContainerNumberCheck =
  | { ok: true }
  | { ok: false; reason: 'format' }
  | { ok: false; reason: 'check_digit'; expected: number };

/** Checks an already compacted number (upper case, no spaces or dashes; see compactContainerNumber). */
export function validateContainerNumber(value: string): ContainerNumberCheck {
  if (!FORMAT.test(value)) return { ok: false, reason: 'format' };
  const expected = containerCheckDigit(value.slice(0, 10));
  if (expected === null) return { ok: false, reason: 'format' };
  return value.charCodeAt(10) - 48 === expected ? { ok: true } : { ok: false, reason: 'check_digit', expected };
}

/** "msku 123456-7" → "MSKU1234567": people write container numbers with spaces, dashes, dots and slashes. */
export function compactContainerNumber(value: string): string {
  return value.replace(/[\s\-./]/g, '').toUpperCase();
}

/** True when the value has the shape of a container number (whatever its check digit). */
export function looksLikeContainerNumber(compacted: string): boolean {
  return FORMAT.test(compacted);
}
