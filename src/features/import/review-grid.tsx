import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { ColumnTarget } from '../../spreadsheet/column-mapping';
import type { CellIssueView, ReviewRowView, RowNumbering } from '../../workers/import-protocol';
import { ISSUE_LEVEL, worstIssue } from './issue-level';

const ROW_HEIGHT = 40;
/** Characters of a cell put in the DOM; the data keeps every character. */
const SHOWN_CHARS = 120;

function shorten(value: string): string {
  return value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}…` : value;
}

const lastColOf = (columns: readonly ColumnTarget[]) => columns.length + 1;

export interface ReviewGridProps {
  columns: ColumnTarget[];
  numbering: RowNumbering;
  viewLength: number;
  rowAt: (index: number) => ReviewRowView | undefined;
  ensure: (from: number, to: number) => void;
  selectedRow: number | null;
  onSelectRow: (row: ReviewRowView) => void;
  onEdit: (row: number, column: number, value: string) => void;
  onToggleExcluded: (row: ReviewRowView) => void;
}

/**
 * All rows of the current view in a virtualized table: only the rows in sight (plus a few) are
 * in the DOM. Each cell shows its value with its worst issue as a mark and text; Enter or a
 * click edits it in place, Escape cancels.
 */
export function ReviewGrid({ columns, viewLength, rowAt, ensure, selectedRow, onSelectRow, onEdit, onToggleExcluded }: ReviewGridProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual returns functions React Compiler cannot memoize; this component is not compiled.
  const virtualizer = useVirtualizer({ count: viewLength, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = (items.at(-1)?.index ?? -1) + 1;
  const [editing, setEditing] = useState<{ row: number; column: number } | null>(null);
  // Roving focus: the grid is one Tab stop; arrow keys move between cells. Positions are
  // (row in the view, column) with column 0 the row button, 1…n the data, n + 1 the action.
  const [active, setActive] = useState({ row: 0, col: 1 });
  const lastCol = lastColOf(columns);
  const activeRow = Math.min(active.row, Math.max(0, viewLength - 1));
  const pendingFocus = useRef<{ row: number; col: number } | null>(null);

  useEffect(() => ensure(first, last), [ensure, first, last]);

  // Focus the cell the keys moved to once it is rendered (it may first need scrolling and loading).
  useLayoutEffect(() => {
    const target = pendingFocus.current;
    if (!target) return;
    const element = scrollRef.current?.querySelector<HTMLElement>(`[data-cell="${target.row}:${target.col}"]`);
    if (element) {
      pendingFocus.current = null;
      element.focus();
    }
  });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target instanceof HTMLInputElement || viewLength === 0) return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const moves: Record<string, [number, number] | undefined> = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
      PageUp: [-page, 0],
      PageDown: [page, 0],
    };
    let next: { row: number; col: number } | null = null;
    const move = moves[event.key];
    if (move) next = { row: activeRow + move[0], col: active.col + move[1] };
    else if (event.key === 'Home') next = event.ctrlKey ? { row: 0, col: 0 } : { row: activeRow, col: 0 };
    else if (event.key === 'End') next = event.ctrlKey ? { row: viewLength - 1, col: lastCol } : { row: activeRow, col: lastCol };
    if (!next) return;
    event.preventDefault();
    next = { row: Math.min(viewLength - 1, Math.max(0, next.row)), col: Math.min(lastCol, Math.max(0, next.col)) };
    setActive(next);
    pendingFocus.current = next;
    virtualizer.scrollToIndex(next.row, { align: 'auto' });
  };

  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);

  return (
    <div
      ref={scrollRef}
      role="region"
      aria-label="Rows to review"
      tabIndex={0}
      aria-describedby="review-grid-keys"
      onKeyDown={onKeyDown}
      // As tall as the rows need, up to 60% of the window; the virtualizer needs a fixed height.
      style={{ height: `min(60vh, ${(viewLength + 1) * ROW_HEIGHT + 8}px)` }}
      className="overflow-auto rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      <table className="w-max min-w-full border-separate border-spacing-0 text-sm" aria-rowcount={viewLength + 1}>
        <thead className="sticky top-0 z-10 bg-slate-100 text-left text-xs font-semibold text-slate-700">
          <tr aria-rowindex={1}>
            <th scope="col" className="sticky left-0 z-20 w-20 border-b border-slate-300 bg-slate-100 px-3 py-2.5">Row</th>
            {columns.map((column) => (
              <th key={column} scope="col" className="min-w-36 border-b border-slate-300 px-3 py-2.5 font-mono">{column}</th>
            ))}
            <th scope="col" className="border-b border-slate-300 px-3 py-2.5">Action</th>
          </tr>
        </thead>
        <tbody>
          {paddingTop > 0 && <tr aria-hidden="true" style={{ height: paddingTop }} />}
          {items.map((item) => {
            const row = rowAt(item.index);
            if (!row) {
              return (
                <tr key={item.key} style={{ height: ROW_HEIGHT }} aria-rowindex={item.index + 2}>
                  <td colSpan={columns.length + 2} className="px-3 text-slate-400">Loading…</td>
                </tr>
              );
            }
            return (
              <GridRow
                key={item.key}
                row={row}
                viewIndex={item.index}
                activeCol={item.index === activeRow ? active.col : null}
                onFocusCell={(col) => setActive({ row: item.index, col })}
                ariaRowIndex={item.index + 2}
                columns={columns}
                selected={selectedRow === row.index}
                editingColumn={editing?.row === row.index ? editing.column : null}
                onSelect={() => onSelectRow(row)}
                onStartEdit={(column) => setEditing({ row: row.index, column })}
                onFinishEdit={(column, value) => {
                  setEditing(null);
                  if (value !== null && value !== row.values[column]) onEdit(row.index, column, value);
                }}
                onToggleExcluded={() => onToggleExcluded(row)}
              />
            );
          })}
          {paddingBottom > 0 && <tr aria-hidden="true" style={{ height: paddingBottom }} />}
        </tbody>
      </table>
    </div>
  );
}

function GridRow({
  row,
  viewIndex,
  activeCol,
  onFocusCell,
  ariaRowIndex,
  columns,
  selected,
  editingColumn,
  onSelect,
  onStartEdit,
  onFinishEdit,
  onToggleExcluded,
}: {
  row: ReviewRowView;
  viewIndex: number;
  /** The column holding the grid's one Tab stop, when it is in this row. */
  activeCol: number | null;
  onFocusCell: (col: number) => void;
  ariaRowIndex: number;
  columns: ColumnTarget[];
  selected: boolean;
  editingColumn: number | null;
  onSelect: () => void;
  onStartEdit: (column: number) => void;
  onFinishEdit: (column: number, value: string | null) => void;
  onToggleExcluded: () => void;
}) {
  const focusProps = (col: number) => ({
    tabIndex: activeCol === col ? 0 : -1,
    'data-cell': `${viewIndex}:${col}`,
    onFocus: () => onFocusCell(col),
  });
  const rowClass = row.excluded ? 'bg-slate-100 text-slate-600 line-through' : selected ? 'bg-brand-50' : 'bg-white';
  return (
    <tr style={{ height: ROW_HEIGHT }} aria-rowindex={ariaRowIndex} aria-selected={selected} className={rowClass}>
      <th scope="row" className={`sticky left-0 z-[5] border-b border-slate-100 px-1 text-left font-normal ${row.excluded ? 'bg-slate-100' : selected ? 'bg-brand-50' : 'bg-white'}`}>
        <button type="button" {...focusProps(0)} onClick={onSelect} className="w-full rounded px-2 py-1 text-left font-mono text-xs text-slate-600 hover:bg-slate-100" aria-label={`Row ${row.rowNumber}: show its issues`}>
          {row.rowNumber}
          {row.issues.some((i) => i.level === 'error') && <span className="ml-1 text-red-700" aria-hidden="true">✕</span>}
        </button>
      </th>
      {columns.map((column, c) => (
        <GridCell
          key={column}
          column={column}
          rowNumber={row.rowNumber}
          value={row.values[c] ?? ''}
          issues={row.issues.filter((i) => i.column === c)}
          editing={editingColumn === c}
          focusProps={focusProps(c + 1)}
          onStartEdit={() => onStartEdit(c)}
          onFinish={(value) => onFinishEdit(c, value)}
        />
      ))}
      <td className="border-b border-slate-100 px-2">
        <button type="button" {...focusProps(lastColOf(columns))} onClick={onToggleExcluded} className="rounded px-2 py-1 text-xs font-medium text-brand-700 no-underline hover:bg-slate-100" aria-label={`${row.excluded ? 'Restore' : 'Exclude'} row ${row.rowNumber}`}>
          {row.excluded ? 'Restore' : 'Exclude'}
        </button>
      </td>
    </tr>
  );
}

function GridCell({
  column,
  rowNumber,
  value,
  issues,
  editing,
  focusProps,
  onStartEdit,
  onFinish,
}: {
  column: ColumnTarget;
  rowNumber: number;
  value: string;
  issues: CellIssueView[];
  editing: boolean;
  focusProps: { tabIndex: number; 'data-cell': string; onFocus: () => void };
  onStartEdit: () => void;
  onFinish: (value: string | null) => void;
}) {
  const issue = worstIssue(issues);
  const style = issue ? ISSUE_LEVEL[issue.level] : null;
  const buttonRef = useRef<HTMLButtonElement>(null);
  // Enter or Escape ends an edit from the keyboard: the focus goes back to the cell, not <body>.
  // A click elsewhere (blur) leaves the focus where the click put it.
  const refocus = useRef(false);
  // An edit ends once: Enter followed by the blur of the unmounting input must not send it twice.
  const finished = useRef(false);
  useLayoutEffect(() => {
    if (editing) finished.current = false;
    if (!editing && refocus.current) {
      refocus.current = false;
      buttonRef.current?.focus();
    }
  }, [editing]);
  if (editing) {
    const finish = (value: string | null) => {
      if (finished.current) return;
      finished.current = true;
      onFinish(value);
    };
    const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
      if (event.key !== 'Enter' && event.key !== 'Escape') return;
      // The focus returns to the cell's button while this key is still being handled; without
      // this, the same Enter would activate that button and reopen the editor.
      event.preventDefault();
      refocus.current = true;
      finish(event.key === 'Enter' ? event.currentTarget.value : null);
    };
    return (
      <td className="border-b border-slate-100 px-1">
        <input
          autoFocus
          defaultValue={value}
          aria-label={`Edit ${column}, row ${rowNumber}`}
          onKeyDown={onKeyDown}
          onBlur={(e) => finish(e.currentTarget.value)}
          className="w-full rounded border border-brand-600 px-2 py-1 font-mono text-sm"
        />
      </td>
    );
  }
  const label = `${column}, row ${rowNumber}: ${value ? shorten(value) : 'empty'}${issue ? `. ${ISSUE_LEVEL[issue.level].word}: ${issue.message}` : ''}. Press Enter to edit.`;
  return (
    <td className={`border-b border-slate-100 px-1 ${style?.cell ?? ''}`}>
      <button
        ref={buttonRef}
        type="button"
        {...focusProps}
        onClick={onStartEdit}
        aria-label={label}
        title={issue?.message}
        className="flex w-full max-w-64 items-center gap-1.5 rounded px-2 py-1 text-left font-mono text-sm hover:bg-black/5"
      >
        <span className="truncate">{value ? shorten(value) : <span className="text-slate-400">—</span>}</span>
        {style && issue && (
          <span aria-hidden="true" className={`ml-auto shrink-0 text-xs font-bold ${style.text}`}>
            {style.mark}
          </span>
        )}
      </button>
    </td>
  );
}
