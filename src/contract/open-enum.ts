import { z } from 'zod';

/**
 * A string field whose spec lists only "observed" values. Unknown values parse without failing,
 * while the type still names the known ones (for exhaustive-looking switches and autocompletion).
 */
export type OpenEnum<T extends string> = T | (string & {});

export function openEnum<const T extends readonly [string, ...string[]]>(_known: T) {
  return z.string().transform((value): OpenEnum<T[number]> => value);
}
