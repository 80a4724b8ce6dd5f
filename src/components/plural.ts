/** "1 row", "2 rows", "1,000 rows": a count and its noun, the noun in the plural unless the count is 1. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}
