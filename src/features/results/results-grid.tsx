import { useVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { StatusBadge } from '../../components/status-badge';
import { creationWords, trackingWords } from './outcome-words';
import { filterCount, rowAt, rowErrors, rowWarnings, type JobResults, type ResultFilter } from './result-rows';
import { describeProblems } from './failed-rows';

const ROW_HEIGHT = 40;
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
 * in the DOM. One Tab stop; arrow keys, Page Up/Down, Home and End move between rows, Enter
 * shows the row's details.
 */
export function ResultsGrid({ results, filter, selected, onSelect }: ResultsGridProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const count = filterCount(results, filter);
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual returns functions React Compiler cannot memoize; this component is not compiled.
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  const items = virtualizer.getVirtualItems();
  const [active, setActive] = useState(0);
  const activeRow = Math.min(active, Math.max(0, count - 1));
  const pendingFocus = useRef<number | null>(null);

  useLayoutEffect(() => {
    if (pendingFocus.current === null) return;
    const element = scrollRef.current?.querySelector<HTMLElement>(`[data-position="${pendingFocus.current}"]`);
    if (element) {
      pendingFocus.current = null;
      element.focus();
    }
  });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (count === 0) return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = { ArrowUp: activeRow - 1, ArrowDown: activeRow + 1, PageUp: activeRow - page, PageDown: activeRow + page, Home: 0, End: count - 1 };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = Math.min(count - 1, Math.max(0, target));
    setActive(next);
    pendingFocus.current = next;
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);

  return (
    <div
      ref={scrollRef}
      role="region"
      aria-label="Result rows"
      aria-describedby="results-grid-keys"
      onKeyDown={onKeyDown}
      style={{ height: `min(60vh, ${(count + 1) * ROW_HEIGHT + 8}px)` }}
      className="overflow-auto rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      <p id="results-grid-keys" className="sr-only">
        Use the arrow keys, Page Up, Page Down, Home and End to move between rows; Enter shows a row's details.
      </p>
      <table className="w-max min-w-full border-separate border-spacing-0 text-sm" aria-rowcount={count + 1}>
        <thead className="sticky top-0 z-10 bg-slate-100 text-left text-xs font-semibold text-slate-700">
          <tr aria-rowindex={1}>
            <th scope="col" className="sticky left-0 z-20 w-20 border-b border-slate-300 bg-slate-100 px-3 py-2.5">Row</th>
            <th scope="col" className="border-b border-slate-300 px-3 py-2.5">Outcome</th>
            <th scope="col" className="border-b border-slate-300 px-3 py-2.5">Tracking</th>
            <th scope="col" className="min-w-72 border-b border-slate-300 px-3 py-2.5">Errors and warnings</th>
            {results.columns.map((column) => (
              <th key={column} scope="col" className="min-w-32 border-b border-slate-300 px-3 py-2.5 font-mono">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {paddingTop > 0 && <tr aria-hidden="true" style={{ height: paddingTop }} />}
          {items.map((virtual) => {
            const row = rowAt(results, filter, virtual.index);
            if (!row) return null;
            const creation = creationWords(row);
            const tracking = trackingWords(row);
            const errors = rowErrors(row);
            const warnings = rowWarnings(row);
            const isSelected = selected === virtual.index;
            const background = isSelected ? 'bg-brand-50' : 'bg-white';
            return (
              <tr key={virtual.key} style={{ height: ROW_HEIGHT }} aria-rowindex={virtual.index + 2} aria-selected={isSelected} className={background}>
                <th scope="row" className={`sticky left-0 z-[5] border-b border-slate-100 px-1 text-left font-normal ${background}`}>
                  <button
                    type="button"
                    data-position={virtual.index}
                    tabIndex={virtual.index === activeRow ? 0 : -1}
                    onFocus={() => setActive(virtual.index)}
                    onClick={() => onSelect(virtual.index)}
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
                <td className="max-w-md truncate border-b border-slate-100 px-3" title={describeProblems([...errors, ...warnings])}>
                  {errors.length > 0 && <span className="text-red-800">✕ {shorten(describeProblems(errors))}</span>}
                  {errors.length > 0 && warnings.length > 0 && ' '}
                  {warnings.length > 0 && <span className="text-amber-900">! {shorten(describeProblems(warnings))}</span>}
                  {errors.length + warnings.length === 0 && <span className="text-slate-500">none</span>}
                </td>
                {results.columns.map((column, c) => (
                  <td key={column} className="max-w-64 truncate border-b border-slate-100 px-3 font-mono">
                    {row.values[c] ? shorten(row.values[c]) : <span className="text-slate-400">—</span>}
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
