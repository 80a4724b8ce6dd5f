import { useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { type GridCellProps, VirtualGrid, type VirtualGridHandle } from '../../components/virtual-grid';
import type { ColumnTarget } from '../../spreadsheet/column-mapping';
import { worstFirst } from '../../spreadsheet/row-issue';
import type { CellIssueView, ReviewRowView, RowNumbering, ServiceNote } from '../../workers/import-protocol';
import { ISSUE_LEVEL } from './issue-level';
import { describeProblems } from '../../spreadsheet/problem-text';

const ROW_HEIGHT = 40;
/** Characters of a cell put in the DOM; the data keeps every character. */
const SHOWN_CHARS = 120;

function shorten(value: string): string {
  return value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}…` : value;
}

/**
 * Widths in px of the grid's columns: fixed, so that laying out the rows never measures their
 * text (the frame that first draws the review is one of the longest on the page), and columns do
 * not shift as other rows scroll in. Wide enough for the values each column usually holds; a
 * longer one ends in "…".
 */
const NUMBER_WIDTH = 80;
const SERVICE_WIDTH = 288;
const ACTION_WIDTH = 104;
const DATA_WIDTHS: Partial<Record<ColumnTarget, number>> = {
  tracking_number: 168,
  tracking_type: 160,
  reference: 184,
  carrier: 120,
  name: 272,
  viewers: 272,
  tags: 208,
  assignees: 272,
};
/** A custom field's column: at least this wide, and wide enough for its slug in the header. */
const CUSTOM_FIELD_WIDTH = 200;
const CUSTOM_FIELD_MAX_WIDTH = 360;
/** The header's monospace characters (12 px) and its padding, in px. */
const HEADER_CHAR_WIDTH = 7.5;
const HEADER_PADDING = 28;

function widthOf(column: ColumnTarget): number {
  return DATA_WIDTHS[column] ?? Math.min(CUSTOM_FIELD_MAX_WIDTH, Math.max(CUSTOM_FIELD_WIDTH, Math.ceil(column.length * HEADER_CHAR_WIDTH) + HEADER_PADDING));
}

function columnWidths(columns: readonly ColumnTarget[], serviceColumn: boolean): number[] {
  return [NUMBER_WIDTH, ...(serviceColumn ? [SERVICE_WIDTH] : []), ...columns.map(widthOf), ACTION_WIDTH];
}

/** Grid positions of a row: 0 the row button, 1 … n the data columns, n + 1 the action. */
export const dataColumnOf = (gridCol: number) => gridCol - 1;
export const gridColOf = (dataColumn: number) => dataColumn + 1;

interface ReviewGridProps {
  columns: ColumnTarget[];
  numbering: RowNumbering;
  /** Fix & retry: a column with what the service said about each row, after its number. */
  serviceColumn?: boolean;
  viewLength: number;
  rowAt: (index: number) => ReviewRowView | undefined;
  ensure: (from: number, to: number) => void;
  selectedRow: number | null;
  onSelectRow: (row: ReviewRowView) => void;
  onEdit: (row: number, column: number, value: string) => void;
  onToggleExcluded: (row: ReviewRowView) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLDivElement>) => void;
  ref?: Ref<VirtualGridHandle>;
}

/**
 * All rows of the current view in the shared VirtualGrid. Each cell shows its value with its worst
 * issue as a mark, and names every issue in its accessible name; Enter or a click edits it in
 * place, Escape cancels. Focusing a row selects it, so its issues are shown in words below.
 */
export function ReviewGrid({ columns, numbering, serviceColumn = false, viewLength, rowAt, ensure, selectedRow, onSelectRow, onEdit, onToggleExcluded, onKeyDown, ref }: ReviewGridProps) {
  const [editing, setEditing] = useState<{ row: number; column: number } | null>(null);
  // The grid's handle, for this component and for the step that passed `ref`.
  const grid = useRef<VirtualGridHandle | null>(null);
  const setGrid = (handle: VirtualGridHandle | null) => {
    grid.current = handle;
    if (typeof ref === 'function') ref(handle);
    else if (ref) ref.current = handle;
  };
  // The cell (grid position) whose edit ended from the keyboard: the grid focuses it again once
  // its button is rendered, as it does any cell the keys move to.
  const refocusCell = useRef<{ row: number; col: number } | null>(null);
  useLayoutEffect(() => {
    const target = refocusCell.current;
    if (editing !== null || target === null) return;
    refocusCell.current = null;
    grid.current?.focusCell(target.row, target.col);
  }, [editing]);
  const word = numbering.toLowerCase();
  const widths = useMemo(() => columnWidths(columns, serviceColumn), [columns, serviceColumn]);
  return (
    <VirtualGrid
      ref={setGrid}
      label="Rows to review"
      describedBy="review-grid-keys"
      rowCount={viewLength}
      colCount={columns.length + 2}
      rowHeight={ROW_HEIGHT}
      columnWidths={widths}
      initialCell={{ row: 0, col: 1 }}
      rowAt={rowAt}
      ensure={ensure}
      onKeyDown={onKeyDown}
      onActiveCell={({ row }) => {
        const shown = rowAt(row);
        if (shown && shown.index !== selectedRow) onSelectRow(shown);
      }}
      header={
        <>
          <th scope="col" className="sticky left-0 z-20 border-b border-slate-300 bg-slate-100 px-3 py-2.5">{numbering}</th>
          {serviceColumn && <th scope="col" className="border-b border-slate-300 px-3 py-2.5">Service said</th>}
          {columns.map((column) => (
            <th key={column} scope="col" className="truncate border-b border-slate-300 px-3 py-2.5 font-mono" title={column}>
              {column}
            </th>
          ))}
          <th scope="col" className="border-b border-slate-300 px-3 py-2.5">Action</th>
        </>
      }
      renderRow={(row, { index, rowProps, cellProps }) => {
        const selected = selectedRow === row.index;
        const rowClass = row.excluded ? 'bg-slate-100 text-slate-600 line-through' : selected ? 'bg-brand-50' : 'bg-white';
        const errors = row.issues.filter((i) => i.level === 'error').length;
        const service = describeServiceNotes(row.serviceNotes ?? []);
        return (
          <tr {...rowProps} aria-selected={selected} className={rowClass}>
            <th scope="row" className={`sticky left-0 z-[5] border-b border-slate-100 px-1 text-left font-normal ${row.excluded ? 'bg-slate-100' : selected ? 'bg-brand-50' : 'bg-white'}`}>
              <button
                type="button"
                {...cellProps(0)}
                onClick={() => onSelectRow(row)}
                className="w-full rounded px-2 py-1 text-left font-mono text-xs text-slate-600 hover:bg-slate-100"
                aria-label={`${numbering} ${row.rowNumber}: ${service ? `the service said: ${service}. ` : ''}show its issues`}
              >
                {row.rowNumber}
                {errors > 0 && <span className="ml-1 text-red-700" aria-hidden="true">✕</span>}
              </button>
            </th>
            {serviceColumn && (
              // Not a Tab stop of its own: the row's number names the message, and the row's issues show it whole.
              <td className="max-w-96 truncate border-b border-slate-100 px-3 text-slate-800" title={service}>
                {service ? <span className="text-red-800">Service: {shorten(service)}</span> : <span className="text-slate-500">—</span>}
              </td>
            )}
            {columns.map((column, c) => {
              const where = `${word} ${row.rowNumber}`;
              const value = row.values[c] ?? '';
              const focusProps = cellProps(gridColOf(c));
              if (editing?.row === row.index && editing.column === c) {
                return (
                  <CellEditor
                    key={column}
                    column={column}
                    where={where}
                    value={value}
                    onFinish={(edited, byKey) => {
                      if (byKey) refocusCell.current = { row: index, col: gridColOf(c) };
                      setEditing(null);
                      if (edited !== null && edited !== value) onEdit(row.index, c, edited);
                    }}
                  />
                );
              }
              return gridCell({
                column,
                where,
                value,
                issues: worstFirst(row.issues.filter((i) => i.column === c)),
                focusProps,
                onStartEdit: () => setEditing({ row: row.index, column: c }),
              });
            })}
            <td className="border-b border-slate-100 px-2">
              <button
                type="button"
                {...cellProps(columns.length + 1)}
                onClick={() => onToggleExcluded(row)}
                className="rounded px-2 py-1 text-xs font-medium text-brand-700 no-underline hover:bg-slate-100"
                aria-label={`${row.excluded ? 'Restore' : 'Exclude'} ${word} ${row.rowNumber}`}
              >
                {row.excluded ? 'Restore' : 'Exclude'}
              </button>
            </td>
          </tr>
        );
      }}
    />
  );
}

/** The service's notes on a row in one line: "column: message; message". */
export function describeServiceNotes(notes: readonly ServiceNote[]): string {
  return describeProblems(notes);
}

interface GridCellArgs {
  column: ColumnTarget;
  /** "line 3" or "row 3". */
  where: string;
  value: string;
  /** This cell's issues, worst first. */
  issues: CellIssueView[];
  focusProps: GridCellProps;
  onStartEdit: () => void;
}

/**
 * A cell as shown: a button and its text, with a mark when it has an issue. A plain function, not
 * a component: a page of rows is a few hundred cells, and hooks or effects in each weigh on every
 * render of the grid. The focus's return after an edit is the grid's.
 */
function gridCell({ column, where, value, issues, focusProps, onStartEdit }: GridCellArgs) {
  const issue = issues[0];
  const style = issue ? ISSUE_LEVEL[issue.level] : null;
  // The reasons are in the name, so a screen reader or a keyboard user reads them without hovering.
  const reasons = issues
    .map((i) => `. ${ISSUE_LEVEL[i.level].word}: ${i.message.replace(/\.$/, '')}`)
    .join('');
  const label = `${column}, ${where}: ${value ? shorten(value) : 'empty'}${reasons}. Press Enter to edit.`;
  // An empty cell shows a grey dash; its name says "empty".
  const text = value ? shorten(value) : '—';
  const textColour = value ? '' : 'text-slate-400';
  return (
    <td key={column} className={`border-b border-slate-100 px-1 ${style?.cell ?? ''}`}>
      {style && issue ? (
        <button
          type="button"
          {...focusProps}
          onClick={onStartEdit}
          aria-label={label}
          title={issue.message}
          className="flex w-full max-w-64 items-center gap-1.5 rounded px-2 py-1 text-left font-mono text-sm hover:bg-black/5"
        >
          <span className={`truncate ${textColour}`}>{text}</span>
          <span aria-hidden="true" className={`ml-auto shrink-0 text-xs font-bold ${style.text}`}>
            {style.mark}
          </span>
        </button>
      ) : (
        // Without a mark the button truncates its own text: one element less in each of most cells.
        <button
          type="button"
          {...focusProps}
          onClick={onStartEdit}
          aria-label={label}
          className={`block w-full max-w-64 truncate rounded px-2 py-1 text-left font-mono text-sm hover:bg-black/5 ${textColour}`}
        >
          {text}
        </button>
      )}
    </td>
  );
}

/** The cell being edited: Enter keeps the value, Escape drops it, and leaving the field keeps it. */
function CellEditor({
  column,
  where,
  value,
  onFinish,
}: {
  column: ColumnTarget;
  where: string;
  value: string;
  /** `byKey`: the edit ended from the keyboard, so the focus goes back to the cell, not to <body>. */
  onFinish: (value: string | null, byKey: boolean) => void;
}) {
  // An edit ends once: Enter followed by the blur of the unmounting input must not send it twice.
  const finished = useRef(false);
  const finish = (value: string | null, byKey: boolean) => {
    if (finished.current) return;
    finished.current = true;
    onFinish(value, byKey);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' && event.key !== 'Escape') return;
    // The focus returns to the cell's button while this key is still being handled; without
    // this, the same Enter would activate that button and reopen the editor.
    event.preventDefault();
    finish(event.key === 'Enter' ? event.currentTarget.value : null, true);
  };
  return (
    <td className="border-b border-slate-100 px-1">
      <input
        autoFocus
        defaultValue={value}
        aria-label={`Edit ${column}, ${where}`}
        onKeyDown={onKeyDown}
        // A click elsewhere (blur) leaves the focus where the click put it.
        onBlur={(e) => finish(e.currentTarget.value, false)}
        className="w-full rounded border border-brand-600 px-2 py-1 font-mono text-sm"
      />
    </td>
  );
}
