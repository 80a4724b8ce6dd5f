// Reading positions in arrays the way Array does, and finding one in an ascending list.

/** Array.prototype.slice's reading of an index: from the end when negative, clamped to the length. */
export function clampIndex(index: number, length: number): number {
  const whole = Math.trunc(index) || 0;
  return whole < 0 ? Math.max(0, length + whole) : Math.min(whole, length);
}

/** The position of the last entry of an ascending list at or before `value`; 0 when none is (or the list is empty). */
export function lastAtOrBefore(sorted: ArrayLike<number>, value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((sorted[middle] ?? 0) <= value) low = middle;
    else high = middle - 1;
  }
  return low;
}
