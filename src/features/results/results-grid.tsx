import { VirtualGrid } from '../../components/virtual-grid';
import { StatusBadge } from '../../components/status-badge';
import { creationWords, trackingWords } from './outcome-words';
import { itemErrors, itemWarnings } from '../../jobs/result-item';
import type { ResultFilter, ResultRowView, ResultsSummary } from '../../jobs/thread/results-protocol';
import { describeProblems } from '../../spreadsheet/problem-text';
import type { RowNumbering } from '../../workers/import-protocol';

const ROW_HEIGHT = 40;
/** Widths in px of the row number, Outcome, Tracking, Errors and warnings; then each sent column's. */
const COLUMN_WIDTHS = [88, 128, 160, 380];
const SENT_COLUMN_WIDTH = 168;
/** Characters of a cell put in the DOM; the data keeps every character. */
const SHOWN_CHARS = 80;
const shorten = (value: string) => (value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}…` : value);

export interface ResultsGridProps {
  results: ResultsSummary;
  filter: ResultFilter;
  /** What the row numbers count: lines of a text file, rows of a sheet (as the importer says). */
  numbering: RowNumbering;
  /** Position in the filter of the row whose details are shown. */
  selected: number | null;
  onSelect: (position: number) => void;
  /** The row at a position of the filter, or undefined while the results thread is asked for it. */
  rowAt: (position: number) => ResultRowView | undefined;
  /** Asks the results thread for the rows [from, to) of the filter. */
  ensure: (from: number, to: number) => void;
}

/**
 * Every result row of the filter in the shared VirtualGrid: only the rows in sight (plus a few)
 * are in the DOM, asked of the results thread by window, and a filter of 100,000 rows costs
 * what a filter of 10 does (rows have one height and the columns fixed widths, so nothing is
 * measured per row). One focusable cell per
 * row, the row's number: arrow keys, Page Up/Down, Home/End and Ctrl+Home/End move between rows,
 * Enter shows the row's details.
 */
export function ResultsGrid({ results, filter, numbering, selected, onSelect, rowAt, ensure }: ResultsGridProps) {
  const count = results.counts[filter];
  return (
    <>
      <p id="results-grid-keys" className="sr-only">
        Use the arrow keys, Page Up, Page Down, Home and End to move between rows; Enter shows a row's details.
      </p>
      <VirtualGrid
        label="Result rows"
        describedBy="results-grid-keys"
        rowCount={count}
        colCount={1}
        rowHeight={ROW_HEIGHT}
        columnWidths={[...COLUMN_WIDTHS, ...results.columns.map(() => SENT_COLUMN_WIDTH)]}
        resetKey={filter}
        rowAt={rowAt}
        ensure={ensure}
        header={
          <>
            <th scope="col" className="sticky left-0 z-20 border-b border-slate-300 bg-slate-100 px-3 py-2.5">{numbering}</th>
            <th scope="col" className="border-b border-slate-300 px-3 py-2.5">Outcome</th>
            <th scope="col" className="border-b border-slate-300 px-3 py-2.5">Tracking</th>
            <th scope="col" className="border-b border-slate-300 px-3 py-2.5">Errors and warnings</th>
            {results.columns.map((column) => (
              <th key={column} scope="col" className="truncate border-b border-slate-300 px-3 py-2.5 font-mono" title={column}>
                {column}
              </th>
            ))}
          </>
        }
        renderRow={(row, { index: position, rowProps, cellProps }) => {
          const creation = creationWords(row);
          const tracking = trackingWords(row);
          const errors = itemErrors(row.item);
          const warnings = itemWarnings(row.item);
          const isSelected = selected === position;
          const background = isSelected ? 'bg-brand-50' : 'bg-white';
          return (
            <tr {...rowProps} aria-selected={isSelected} className={background}>
              <th scope="row" className={`sticky left-0 z-[5] border-b border-slate-100 px-1 text-left font-normal ${background}`}>
                <button
                  type="button"
                  {...cellProps(0)}
                  onClick={() => onSelect(position)}
                  aria-label={`${numbering} ${row.rowNumber}: ${creation.text}. Show its details`}
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
                {errors.length + warnings.length === 0 && <span className="text-slate-600">none</span>}
              </td>
              {results.columns.map((column, c) => (
                <td key={column} className="truncate border-b border-slate-100 px-3 font-mono">
                  {row.values[c] ? shorten(row.values[c]) : <span className="text-slate-600">—</span>}
                </td>
              ))}
            </tr>
          );
        }}
      />
    </>
  );
}
