import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { StatusBadge } from '../../components/status-badge';
import { creationWords, trackingWords } from './outcome-words';
import { filterCount, rowAt, rowErrors, rowWarnings, type JobResults, type ResultFilter } from './result-rows';
import { describeProblems } from './failed-rows';

const ROW_HEIGHT = 40;
/** Widths in px of Row, Outcome, Tracking, Errors and warnings; then each sent column's. */
const COLUMN_WIDTHS = [88, 128, 160, 380];
const SENT_COLUMN_WIDTH = 168;
/** Rows rendered above and below the ones in sight. */
const OVERSCAN = 10;
/** Characters of a cell put in the DOM; the data keeps every character. */
const SHOWN_CHARS = 80;
const shorten = (value: string) => (value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}…` : value);

export interface ResultsGridProps {
  results: JobResults;
  filter: ResultFilter;
  /** Position in the filter of the row whose details are shown. */
  selected: number | null;
  onSelect: (position: number) => void;
}

/**
 * Every result row of the filter in a virtualized table: only the rows in sight (plus a few) are
 * in the DOM. Rows have one fixed height, so the window is arithmetic on the scroll offset: a
 * filter of 100,000 rows costs what a filter of 10 does (a general virtualizer measures every
 * row's position when the count changes). One Tab stop; arrow keys, Page Up/Down, Home and End
 * move between rows, Enter shows the row's details.
 */
export function ResultsGrid({ results, filter, selected, onSelect }: ResultsGridProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const count = filterCount(results, filter);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(0);
  const [active, setActive] = useState(0);
  const activeRow = Math.min(active, Math.max(0, count - 1));
  const pendingFocus = useRef<number | null>(null);
  // Another filter starts at its top. The grid stays mounted: remounting it would lay out and
  // measure the whole box again on every switch.
  const [shownFilter, setShownFilter] = useState(filter);
  if (shownFilter !== filter) {
    setShownFilter(filter);
    setScrollTop(0);
    setActive(0);
  }
  // Moving (or reading) the box's scroll forces a layout of the page: done only when the last
  // scroll event left it away from the top.
  const lastScrollTop = useRef(0);
  useLayoutEffect(() => {
    if (scrollRef.current && lastScrollTop.current !== 0) {
      scrollRef.current.scrollTop = 0;
      lastScrollTop.current = 0;
    }
  }, [filter]);

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    setViewport(element.clientHeight);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setViewport(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    if (pendingFocus.current === null) return;
    const element = scrollRef.current?.querySelector<HTMLElement>(`[data-position="${pendingFocus.current}"]`);
    if (element) {
      pendingFocus.current = null;
      element.focus({ preventScroll: true });
    }
  });

  /** Scrolls just enough to show a row below the sticky header. */
  const scrollToRow = (position: number) => {
    const element = scrollRef.current;
    if (!element) return;
    const header = element.querySelector('thead')?.getBoundingClientRect().height ?? ROW_HEIGHT;
    const top = position * ROW_HEIGHT;
    let next = scrollTop;
    if (top < next) next = top;
    else if (top + ROW_HEIGHT + header > next + viewport) next = top + ROW_HEIGHT + header - viewport;
    if (next !== scrollTop) {
      element.scrollTop = next;
      lastScrollTop.current = next;
      setScrollTop(next);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (count === 0) return;
    const page = Math.max(1, Math.floor(viewport / ROW_HEIGHT) - 2);
    const moves: Record<string, number> = { ArrowUp: activeRow - 1, ArrowDown: activeRow + 1, PageUp: activeRow - page, PageDown: activeRow + page, Home: 0, End: count - 1 };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = Math.min(count - 1, Math.max(0, target));
    setActive(next);
    pendingFocus.current = next;
    scrollToRow(next);
  };

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scrollTop + viewport) / ROW_HEIGHT) + OVERSCAN);
  const positions = Array.from({ length: Math.max(0, last - first) }, (_, i) => first + i);
  const tableWidth = COLUMN_WIDTHS.reduce((sum, width) => sum + width, 0) + results.columns.length * SENT_COLUMN_WIDTH;
  const paddingTop = first * ROW_HEIGHT;
  const paddingBottom = (count - last) * ROW_HEIGHT;

  return (
    <div
      ref={scrollRef}
      role="region"
      aria-label="Result rows"
      aria-describedby="results-grid-keys"
      // The Tab stop is the active row's button; while that row is scrolled out of the DOM, the box itself.
      tabIndex={activeRow >= first && activeRow < last ? -1 : 0}
      onKeyDown={onKeyDown}
      onScroll={(event) => {
        lastScrollTop.current = event.currentTarget.scrollTop;
        setScrollTop(lastScrollTop.current);
      }}
      style={{ height: `min(60vh, ${(count + 1) * ROW_HEIGHT + 8}px)` }}
      className="overflow-auto rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      <p id="results-grid-keys" className="sr-only">
        Use the arrow keys, Page Up, Page Down, Home and End to move between rows; Enter shows a row's details.
      </p>
      {/* Fixed layout and widths: laying out the rows in sight never depends on their text, so
          a filter switch or a scroll costs the same whatever the cells hold, and columns keep
          their place while scrolling. */}
      <table className="table-fixed border-separate border-spacing-0 text-sm" style={{ width: tableWidth }} aria-rowcount={count + 1}>
        <colgroup>
          {COLUMN_WIDTHS.map((width, i) => (
            <col key={i} style={{ width }} />
          ))}
          {results.columns.map((column) => (
            <col key={column} style={{ width: SENT_COLUMN_WIDTH }} />
          ))}
        </colgroup>
        <thead className="sticky top-0 z-10 bg-slate-100 text-left text-xs font-semibold text-slate-700">
          <tr aria-rowindex={1}>
            <th scope="col" className="sticky left-0 z-20 border-b border-slate-300 bg-slate-100 px-3 py-2.5">Row</th>
            <th scope="col" className="border-b border-slate-300 px-3 py-2.5">Outcome</th>
            <th scope="col" className="border-b border-slate-300 px-3 py-2.5">Tracking</th>
            <th scope="col" className="border-b border-slate-300 px-3 py-2.5">Errors and warnings</th>
            {results.columns.map((column) => (
              <th key={column} scope="col" className="truncate border-b border-slate-300 px-3 py-2.5 font-mono" title={column}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {paddingTop > 0 && <tr aria-hidden="true" style={{ height: paddingTop }} />}
          {positions.map((position) => {
            const row = rowAt(results, filter, position);
            if (!row) return null;
            const creation = creationWords(row);
            const tracking = trackingWords(row);
            const errors = rowErrors(row);
            const warnings = rowWarnings(row);
            const isSelected = selected === position;
            const background = isSelected ? 'bg-brand-50' : 'bg-white';
            return (
              <tr key={position} style={{ height: ROW_HEIGHT }} aria-rowindex={position + 2} aria-selected={isSelected} className={background}>
                <th scope="row" className={`sticky left-0 z-[5] border-b border-slate-100 px-1 text-left font-normal ${background}`}>
                  <button
                    type="button"
                    data-position={position}
                    tabIndex={position === activeRow ? 0 : -1}
                    onFocus={() => setActive(position)}
                    onClick={() => onSelect(position)}
                    aria-label={`Row ${row.rowNumber}: ${creation.text}. Show its details`}
                    className="w-full rounded px-2 py-1 text-left font-mono text-xs text-slate-700 hover:bg-slate-100"
                  >
                    {row.rowNumber}
                  </button>
                </th>
                <td className="border-b border-slate-100 px-3">
                  <StatusBadge tone={creation.tone}>{creation.text}</StatusBadge>
                </td>
                <td className="border-b border-slate-100 px-3">
                  <StatusBadge tone={tracking.tone}>{tracking.text}</StatusBadge>
                </td>
                <td className="truncate border-b border-slate-100 px-3" title={describeProblems([...errors, ...warnings])}>
                  {errors.length > 0 && <span className="text-red-800">✕ {shorten(describeProblems(errors))}</span>}
                  {errors.length > 0 && warnings.length > 0 && ' '}
                  {warnings.length > 0 && <span className="text-amber-900">! {shorten(describeProblems(warnings))}</span>}
                  {errors.length + warnings.length === 0 && <span className="text-slate-500">none</span>}
                </td>
                {results.columns.map((column, c) => (
                  <td key={column} className="truncate border-b border-slate-100 px-3 font-mono">
                    {row.values[c] ? shorten(row.values[c]) : <span className="text-slate-500">—</span>}
                  </td>
                ))}
              </tr>
            );
          })}
          {paddingBottom > 0 && <tr aria-hidden="true" style={{ height: paddingBottom }} />}
        </tbody>
      </table>
    </div>
  );
}
