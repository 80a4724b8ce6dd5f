// Fixed-height rows beyond what a browser can scroll: Chromium caps an element at 33,554,430 px
// (Firefox near 17.9M), so 1,000,000 rows of 40 px cannot all be laid out. Above MAX_SCROLL_HEIGHT
// the scroll bar moves through a shorter element and each pixel of it stands for `scale` pixels
// of rows; first, middle and last rows stay reachable. Pure, so it is tested in Node.

/** Height the grid's scroll content never exceeds: under every browser's cap. */
export const MAX_SCROLL_HEIGHT = 15_000_000;

interface ScrollGeometry {
  /** Height of all rows as if laid out. */
  total: number;
  /** Height the scroll content gets. */
  height: number;
  /** Row pixels per scroll pixel: 1 until the rows outgrow MAX_SCROLL_HEIGHT. */
  scale: number;
}

/** `viewport`: the height rows are seen through (the scroll box less its sticky header). */
export function scrollGeometry(rowCount: number, rowHeight: number, viewport: number, maxHeight = MAX_SCROLL_HEIGHT): ScrollGeometry {
  const total = rowCount * rowHeight;
  if (total <= maxHeight || viewport >= maxHeight) return { total, height: total, scale: 1 };
  return { total, height: maxHeight, scale: (total - viewport) / (maxHeight - viewport) };
}

interface RowWindow {
  /** First and one-past-last row index to render. */
  from: number;
  to: number;
  /** Height of the spacer above row `from`, in scroll content pixels. */
  padTop: number;
  /** Height of the spacer below the last rendered row. */
  padBottom: number;
}

/**
 * The rows to render at `scrollTop` (scroll content pixels) whose top row starts at `offset`
 * (row pixels, scrollTop × scale unless a jump set it exactly), with `overscan` rows either side
 * where the spacer above allows them.
 */
export function rowWindow(
  geometry: ScrollGeometry,
  rowCount: number,
  rowHeight: number,
  viewport: number,
  scrollTop: number,
  offset: number,
  overscan: number,
): RowWindow {
  if (rowCount === 0) return { from: 0, to: 0, padTop: 0, padBottom: 0 };
  const top = Math.max(0, Math.min(offset, geometry.total - viewport));
  const firstSeen = Math.min(rowCount - 1, Math.floor(top / rowHeight));
  // Row i sits at scrollTop + i × rowHeight − top in the content; a spacer cannot be negative, so
  // rows above the first seen one are drawn only as far as there is room above it.
  const room = scrollTop - (top - firstSeen * rowHeight);
  const above = Math.max(0, Math.min(overscan, firstSeen, Math.floor(room / rowHeight)));
  const from = firstSeen - above;
  const to = Math.min(rowCount, Math.ceil((top + viewport) / rowHeight) + overscan);
  const padTop = Math.max(0, room - above * rowHeight);
  const padBottom = Math.max(0, geometry.height - padTop - (to - from) * rowHeight);
  return { from, to, padTop, padBottom };
}

/** The row offset that brings `row` into view with the least movement from `offset`. */
export function offsetToShow(row: number, rowHeight: number, viewport: number, offset: number): number {
  const rowTop = row * rowHeight;
  if (rowTop < offset) return rowTop;
  if (rowTop + rowHeight > offset + viewport) return rowTop + rowHeight - viewport;
  return offset;
}
