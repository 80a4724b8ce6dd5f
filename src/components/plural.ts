// Counts as people read them ("1,234"), with one formatter for the whole console: each
// toLocaleString call made a formatter of its own, many per render of a table of counts.
const counts = new Intl.NumberFormat('en');

/** A count with thousands separators: 1234 → "1,234". */
export function formatCount(count: number): string {
  return counts.format(count);
}

/** "1 row", "2 rows", "1,000 rows": a count and its noun, the noun in the plural unless the count is 1. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}
