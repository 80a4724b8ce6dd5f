import { Fragment, useCallback, useImperativeHandle, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import { offsetToShow, rowWindow, scrollGeometry } from './scroll-scale';

/** Spread on the one focusable element of each cell: the grid's roving Tab stop. */
export interface GridCellProps {
  tabIndex: 0 | -1;
  'data-cell': string;
  onFocus: () => void;
}

/** Spread on each row's <tr>: its height and aria-rowindex (the header row is 1). */
export interface GridRowProps {
  'aria-rowindex': number;
  style: { height: number };
}

export interface GridRowContext {
  /** Position of the row in the grid, 0-based. */
  index: number;
  rowProps: GridRowProps;
  cellProps: (col: number) => GridCellProps;
}

export interface VirtualGridHandle {
  /** Scrolls the cell into view (vertically and horizontally) and focuses it once it is rendered. */
  focusCell: (row: number, col: number) => void;
  /** The cell holding the Tab stop. */
  activeCell: () => { row: number; col: number };
}

export interface VirtualGridProps<Row> {
  /** The scroll region's accessible name. */
  label: string;
  /** Id of the text that tells the keys. */
  describedBy?: string;
  rowCount: number;
  /** Focusable cells per row; positions 0 … colCount − 1. */
  colCount: number;
  /** Every row has this height, in pixels. */
  rowHeight: number;
  /**
   * Widths in px of the table's columns (every <td>/<th> of a row, focusable or not). Given, the
   * table has a fixed layout: laying out the rows in sight never depends on their text, so a
   * scroll or a new set of rows costs the same whatever the cells hold. Without, columns size to
   * their content.
   */
  columnWidths?: readonly number[];
  /** When this changes, the grid shows its top and the first cell takes the Tab stop (another filter). */
  resetKey?: unknown;
  /** The header row's <th> cells. */
  header: ReactNode;
  /** The row at a position, or undefined while it is being fetched. */
  rowAt: (index: number) => Row | undefined;
  /** Called with the rows [from, to) on screen, for rows fetched by range; a local array needs none. */
  ensure?: (from: number, to: number) => void;
  /** One <tr> for a row: spread rowProps on it and cellProps(col) on each cell's focusable element. */
  renderRow: (row: Row, context: GridRowContext) => ReactNode;
  /** The cell that holds the Tab stop at first. */
  initialCell?: { row: number; col: number };
  /** Keys before the grid's own; call preventDefault to keep the grid from handling one. */
  onKeyDown?: (event: KeyboardEvent<HTMLDivElement>) => void;
  /** The cell that just got the focus, for a panel that shows what is in it. */
  onActiveCell?: (cell: { row: number; col: number }) => void;
  ref?: Ref<VirtualGridHandle>;
}

// Rows rendered beyond each edge of the box once it is measured: three rows (120 px of the review
// grid) cover a wheel's step. Each row is a dozen cells, so every row more weighs on each render.
const OVERSCAN = 3;

/**
 * A virtualized table that is one Tab stop: arrow keys, Page Up/Down, Home/End and
 * Ctrl+Home/End move a roving focus between cells, which survives re-renders (an edited row keeps
 * its cell focused). Only the rows in sight (plus a few) are in the DOM, each with aria-rowindex.
 * Rows come from `rowAt` — a local array, or windows fetched by range through `ensure`. Any row
 * count is reachable: past the browsers' largest element the scroll bar is scaled (scroll-scale.ts).
 */
export function VirtualGrid<Row>({
  label,
  describedBy,
  rowCount,
  colCount,
  rowHeight,
  columnWidths,
  resetKey,
  header,
  rowAt,
  ensure,
  renderRow,
  initialCell = { row: 0, col: 0 },
  onKeyDown,
  onActiveCell,
  ref,
}: VirtualGridProps<Row>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const headRef = useRef<HTMLTableSectionElement>(null);
  const [view, setView] = useState(() => ({ scrollTop: 0, offset: 0, viewport: estimatedViewport(rowCount, rowHeight), measured: false }));
  // A programmatic jump knows the exact row offset it wants; the scroll position it sets is
  // rounded, and scale × rounding could be several pixels off.
  const jump = useRef<{ scrollTop: number; offset: number } | null>(null);
  const [active, setActive] = useState(initialCell);
  const pendingFocus = useRef<{ row: number; col: number } | null>(null);
  // Other rows start at their top, in the same render: the grid stays mounted, since remounting
  // would lay out and measure the whole box again on every switch.
  const [shownKey, setShownKey] = useState(resetKey);
  if (shownKey !== resetKey) {
    setShownKey(resetKey);
    setActive(initialCell);
    setView((v) => ({ ...v, scrollTop: 0, offset: 0 }));
  }

  const geometry = scrollGeometry(rowCount, rowHeight, view.viewport);
  // The first render holds only the rows in sight, estimated: the box's first frame is one of the
  // heaviest, and the rows beyond come with its first measure.
  const slice = rowWindow(geometry, rowCount, rowHeight, view.viewport, view.scrollTop, view.offset, view.measured ? OVERSCAN : 0);
  const activeRow = Math.min(active.row, Math.max(0, rowCount - 1));
  const activeCol = Math.min(active.col, colCount - 1);

  const measure = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    const viewport = Math.max(rowHeight, element.clientHeight - (headRef.current?.offsetHeight ?? 0));
    const scrollTop = element.scrollTop;
    const exact = jump.current && Math.abs(jump.current.scrollTop - scrollTop) <= 1 ? jump.current.offset : null;
    if (exact === null) jump.current = null;
    const { scale } = scrollGeometry(rowCount, rowHeight, viewport);
    setView({ scrollTop, offset: exact ?? scrollTop * scale, viewport, measured: true });
  }, [rowCount, rowHeight]);

  // Reading or moving the box's scroll forces a layout of the page: a new box is at its top
  // already, and an old one is moved only when it is away from the top.
  const mounted = useRef(false);
  useLayoutEffect(() => {
    jump.current = null;
    const element = scrollRef.current;
    if (mounted.current && element && element.scrollTop !== 0) element.scrollTop = 0;
  }, [resetKey]);

  useLayoutEffect(() => {
    const element = scrollRef.current;
    // jsdom (component tests) has no ResizeObserver; a measure now is all it gets.
    const observed = element !== null && typeof ResizeObserver !== 'undefined';
    // A new box is measured by the observer's first report, after the browser's own layout:
    // measured here, inside the commit, it would force the whole page's first layout into
    // React's task. After that (the row count changed) it is measured at once.
    if (!observed || mounted.current) measure();
    mounted.current = true;
    if (!observed) return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [measure]);

  const { from, to } = slice;
  useLayoutEffect(() => ensure?.(from, to), [ensure, from, to]);

  /** Focuses the cell the keys moved to once it is rendered (it may first need scrolling and loading). */
  useLayoutEffect(() => {
    const target = pendingFocus.current;
    const scroller = scrollRef.current;
    if (!target || !scroller) return;
    const element = scroller.querySelector<HTMLElement>(`[data-cell="${target.row}:${target.col}"]`);
    if (!element) return;
    pendingFocus.current = null;
    // The grid already scrolled the row into its box; the page and the columns may still need to
    // move (the cell can be below the fold or far right), but not the rows, which a scaled
    // scroll position would shift.
    element.focus({ preventScroll: true });
    element.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    revealFromUnderStickyColumn(scroller, element);
  });

  const scrollToRow = (row: number) => {
    const element = scrollRef.current;
    if (!element) return;
    const offset = offsetToShow(row, rowHeight, view.viewport, view.offset);
    if (offset === view.offset) return;
    const scrollTop = offset / geometry.scale;
    jump.current = { scrollTop: Math.round(scrollTop), offset };
    element.scrollTop = scrollTop;
    setView((v) => ({ ...v, scrollTop: element.scrollTop, offset }));
  };

  const moveTo = (row: number, col: number) => {
    if (rowCount === 0) return;
    const next = { row: Math.min(rowCount - 1, Math.max(0, row)), col: Math.min(colCount - 1, Math.max(0, col)) };
    setActive(next);
    pendingFocus.current = next;
    scrollToRow(next.row);
  };

  useImperativeHandle(ref, () => ({ focusCell: moveTo, activeCell: () => ({ row: activeRow, col: activeCol }) }));

  const keyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    onKeyDown?.(event);
    if (event.defaultPrevented || event.target instanceof HTMLInputElement || rowCount === 0) return;
    const page = Math.max(1, Math.floor(view.viewport / rowHeight) - 1);
    const moves: Record<string, [number, number] | undefined> = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
      PageUp: [-page, 0],
      PageDown: [page, 0],
    };
    const move = moves[event.key];
    let next: [number, number] | null = null;
    if (move) next = [activeRow + move[0], activeCol + move[1]];
    // In a grid of one column, Home and End have no cell to go to in the row: they go to the first and last rows.
    else if (event.key === 'Home') next = event.ctrlKey || colCount === 1 ? [0, 0] : [activeRow, 0];
    else if (event.key === 'End') next = event.ctrlKey || colCount === 1 ? [rowCount - 1, colCount - 1] : [activeRow, colCount - 1];
    if (!next) return;
    event.preventDefault();
    moveTo(next[0], next[1]);
  };

  const rows: ReactNode[] = [];
  for (let index = slice.from; index < slice.to; index++) {
    const rowProps = { 'aria-rowindex': index + 2, style: { height: rowHeight } };
    const row = rowAt(index);
    if (row === undefined) {
      rows.push(
        <tr key={index} {...rowProps}>
          <td colSpan={colCount} className="px-3 text-slate-500">Loading…</td>
        </tr>,
      );
      continue;
    }
    const cellProps = (col: number): GridCellProps => ({
      tabIndex: index === activeRow && col === activeCol ? 0 : -1,
      'data-cell': `${index}:${col}`,
      onFocus: () => {
        if (index !== activeRow || col !== activeCol) setActive({ row: index, col });
        onActiveCell?.({ row: index, col });
      },
    });
    // Keyed by position, so a re-rendered row keeps its DOM (and the focus in it).
    rows.push(<Fragment key={index}>{renderRow(row, { index, rowProps, cellProps })}</Fragment>);
  }

  return (
    <div
      ref={scrollRef}
      role="region"
      aria-label={label}
      tabIndex={0}
      aria-describedby={describedBy}
      onKeyDown={keyDown}
      onScroll={measure}
      // As tall as the rows need, up to 60% of the window.
      style={{ height: `min(60vh, ${(rowCount + 1) * rowHeight + 8}px)` }}
      className="overflow-auto rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      <table
        className={`${columnWidths ? 'table-fixed' : 'w-max min-w-full'} border-separate border-spacing-0 text-sm`}
        style={columnWidths ? { width: columnWidths.reduce((sum, width) => sum + width, 0) } : undefined}
        aria-rowcount={rowCount + 1}
      >
        {columnWidths && (
          <colgroup>
            {columnWidths.map((width, i) => (
              <col key={i} style={{ width }} />
            ))}
          </colgroup>
        )}
        <thead ref={headRef} className="sticky top-0 z-10 bg-slate-100 text-left text-xs font-semibold text-slate-700">
          <tr aria-rowindex={1}>{header}</tr>
        </thead>
        <tbody>
          {slice.padTop > 0 && <tr aria-hidden="true" style={{ height: slice.padTop }} />}
          {rows}
          {slice.padBottom > 0 && <tr aria-hidden="true" style={{ height: slice.padBottom }} />}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The rows' viewport before the box is measured, from the height its style gives it (60% of the
 * window at most) less the header row: the first render already holds about the rows in sight.
 */
function estimatedViewport(rowCount: number, rowHeight: number): number {
  const windowHeight = typeof window === 'undefined' ? 0 : window.innerHeight;
  return Math.max(rowHeight, Math.min(windowHeight * 0.6, (rowCount + 1) * rowHeight + 8) - rowHeight);
}

/** Scrolls a cell out from under the sticky first column. */
function revealFromUnderStickyColumn(scroller: HTMLElement, cell: HTMLElement): void {
  if (cell.closest('th')) return;
  const left = scroller.getBoundingClientRect().left + (scroller.querySelector('thead th')?.getBoundingClientRect().width ?? 0);
  const rect = cell.getBoundingClientRect();
  if (rect.left < left) scroller.scrollLeft -= left - rect.left;
}
