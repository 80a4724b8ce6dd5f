/**
 * Scanners consume complete items (rows, shared strings) from decompressed text and leave the
 * unfinished tail for the next chunk. Joining that tail to the whole next chunk would copy every
 * chunk once more; instead the tail is joined only to the text up to the chunk's first item end,
 * and the rest of the chunk is scanned in place.
 *
 * `scan(xml, from)` consumes complete items from `from` and returns where the unconsumed rest
 * begins; `itemEnd` is the closing tag of an item, or null while the scanner does not know it.
 * Returns the new unconsumed tail.
 */
export function scanChunk(pending: string, text: string, itemEnd: string | null, scan: (xml: string, from: number) => number): string {
  if (pending === '') return text.slice(scan(text, 0));
  const cut = itemEnd === null ? -1 : text.indexOf(itemEnd);
  const end = cut < 0 ? text.length : cut + (itemEnd?.length ?? 0);
  const joined = pending + text.slice(0, end);
  const consumed = scan(joined, 0);
  if (consumed === joined.length) return end === text.length ? '' : text.slice(scan(text, end));
  // Still incomplete: an item longer than the chunk, or the end tag was not the item's (inside a
  // comment). Scan on through the whole chunk, then wait for more with everything unconsumed.
  const rest = joined.slice(consumed) + text.slice(end);
  return rest.slice(scan(rest, 0));
}
