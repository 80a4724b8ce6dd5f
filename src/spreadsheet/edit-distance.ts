/**
 * Edits (insert, delete, substitute, swap two neighbours) between two short strings, or
 * max + 1 once it is sure to exceed max. Used to offer "did you mean" for typos such as
 * "containr" or "MAUE", never to change a value on its own.
 */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const width = b.length + 1;
  // Three rolling rows of the classic table; typed arrays keep this cheap when run per header.
  let before = new Int32Array(width);
  let previous = new Int32Array(width);
  let current = new Int32Array(width);
  for (let j = 0; j < width; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j < width; j++) {
      const bj = b.charCodeAt(j - 1);
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) value = Math.min(value, before[j - 2]! + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length]!, max + 1);
}

/** The candidate closest to value within max edits (the first on ties), or null. */
export function closest(value: string, candidates: Iterable<string>, max: number): string | null {
  let best: string | null = null;
  let bestDistance = max + 1;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - value.length) >= bestDistance) continue;
    const distance = editDistance(value, candidate, max);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}
