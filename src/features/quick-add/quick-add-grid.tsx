import type { ClipboardEvent, KeyboardEvent, RefObject } from 'react';
import { type GridCellProps, VirtualGrid, type VirtualGridHandle } from '../../components/virtual-grid';
import type { IssueLevel } from '../../spreadsheet/row-issue';
import { type CellIssue, type CheckedRow, QUICK_ADD_COLUMNS, type QuickAddColumn, type QuickAddRow } from './quick-add-rows';

const LABELS: Record<QuickAddColumn, string> = {
  reference: 'Reference',
  tracking_number: 'Tracking number',
  tracking_type: 'Tracking type',
  carrier_scac: 'Carrier SCAC',
  name: 'Name',
};

const LEVEL_WORDS: Record<IssueLevel, { word: string; className: string }> = {
  error: { word: 'Error', className: 'text-red-800' },
  warning: { word: 'Warning', className: 'text-amber-900' },
  auto_fix: { word: 'Auto-fix', className: 'text-slate-600' },
};

/** An input, then one line for its issues: every row the same height, as the virtual grid needs. */
const ROW_HEIGHT = 60;
/** Row number, the five fields, Remove: the page's width at 1366 px. Fixed, so laying out a row never depends on its text. */
const COLUMN_WIDTHS = [64, 200, 216, 184, 168, 336, 56];
/** Grid positions: 0 … 4 the fields, 5 the row's Remove button. */
const REMOVE_COL = QUICK_ADD_COLUMNS.length;
export const KEYS_HINT_ID = 'quick-add-keys';

const issuesId = (row: number, column: number) => `quick-add-${row}-${column}-issues`;

const cellIssues = (checked: CheckedRow | undefined, column: QuickAddColumn): CellIssue[] => (checked?.blank ? [] : (checked?.issues[column] ?? []));

export interface GridHandlers {
  onChange: (row: number, column: number, value: string) => void;
  /** Text with a tab or a line break was pasted into a cell; the grid lays it out from there. */
  onPaste: (row: number, column: number, text: string) => void;
  onRemove: (row: number) => void;
  /** Enter on the last row: the grid grows by a row (within the cap) and focus goes there. */
  onEnterLastRow: (row: number, column: number) => void;
}

interface QuickAddGridProps {
  rows: readonly QuickAddRow[];
  checked: readonly CheckedRow[];
  /** The row whose issues RowIssues lists in full; its cells point there instead of their own line. */
  activeRow: number;
  onActiveRow: (row: number) => void;
  handlers: GridHandlers;
  gridRef: RefObject<VirtualGridHandle | null>;
}

/**
 * The rows to add in the shared VirtualGrid: an input per field, only the rows in sight in the
 * DOM. Tab and Shift+Tab go across the cells row after row, as in a spreadsheet; Up and Down (and
 * Enter) go between rows in the same column. Each cell shows its issues on one line under the
 * input; the focused row's are listed whole, with their fixes, by RowIssues.
 */
export function QuickAddGrid({ rows, checked, activeRow, onActiveRow, handlers, gridRef }: QuickAddGridProps) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    const [row = 0, col = 0] = target.dataset.cell?.split(':').map(Number) ?? [];
    if (target.dataset.cell === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    const moveTo = (nextRow: number, nextCol: number) => {
      event.preventDefault();
      gridRef.current?.focusCell(nextRow, nextCol);
    };
    if (event.key === 'Tab') {
      // The first and the last cell let Tab leave the grid.
      if (event.shiftKey) {
        if (col > 0) moveTo(row, col - 1);
        else if (row > 0) moveTo(row - 1, REMOVE_COL);
      } else if (col < REMOVE_COL) moveTo(row, col + 1);
      else if (row < rows.length - 1) moveTo(row + 1, 0);
      return;
    }
    // On the Remove buttons the grid's own keys apply; in an input, left and right move the caret.
    if (!(target instanceof HTMLInputElement)) return;
    const down = event.key === 'ArrowDown' || (event.key === 'Enter' && !event.shiftKey);
    const up = event.key === 'ArrowUp' || (event.key === 'Enter' && event.shiftKey);
    if (down && event.key === 'Enter' && row === rows.length - 1) {
      event.preventDefault();
      handlers.onEnterLastRow(row, col);
    } else if (down && row < rows.length - 1) moveTo(row + 1, col);
    else if (up && row > 0) moveTo(row - 1, col);
    else if (down || up) event.preventDefault();
  };

  return (
    <>
      <VirtualGrid
        ref={gridRef}
        label="Shipments to add, one per row"
        describedBy={KEYS_HINT_ID}
        rowCount={rows.length}
        colCount={REMOVE_COL + 1}
        rowHeight={ROW_HEIGHT}
        columnWidths={COLUMN_WIDTHS}
        rowAt={(index) => rows[index]}
        onKeyDown={onKeyDown}
        onActiveCell={({ row }) => onActiveRow(row)}
        header={
          <>
            <th scope="col" className="sticky left-0 z-20 border-b border-slate-300 bg-slate-100 px-2 py-2 text-right">Row</th>
            {QUICK_ADD_COLUMNS.map((column) => (
              <th key={column} scope="col" className="border-b border-slate-300 px-2 py-2">
                {LABELS[column]}
                <span className="block font-mono text-[11px] font-normal text-slate-600">{column}{column === 'name' ? ' (optional)' : ''}</span>
              </th>
            ))}
            <th scope="col" className="border-b border-slate-300 px-2 py-2"><span className="sr-only">Remove</span></th>
          </>
        }
        renderRow={(row, { index, rowProps, cellProps }) => (
          <GridRow index={index} row={row} checked={checked[index]} active={index === activeRow} rowProps={rowProps} cellProps={cellProps} handlers={handlers} />
        )}
      />
      <datalist id="quick-add-tracking-types">
        <option value="container" />
        <option value="bill_of_lading" />
        <option value="booking" />
      </datalist>
    </>
  );
}

function GridRow({
  index,
  row,
  checked,
  active,
  rowProps,
  cellProps,
  handlers,
}: {
  index: number;
  row: QuickAddRow;
  checked: CheckedRow | undefined;
  active: boolean;
  rowProps: { 'aria-rowindex': number; style: { height: number } };
  cellProps: (col: number) => GridCellProps;
  handlers: GridHandlers;
}) {
  const number = index + 1;
  const background = checked?.hasError ? 'bg-red-50' : 'bg-white';
  const onPaste = (event: ClipboardEvent<HTMLInputElement>, column: number) => {
    const text = event.clipboardData.getData('text/plain');
    if (!/[\t\n]/.test(text)) return;
    event.preventDefault();
    handlers.onPaste(index, column, text);
  };
  return (
    <tr {...rowProps} className={background}>
      <th scope="row" className={`sticky left-0 z-[5] border-b border-slate-100 px-2 text-right align-top font-normal tabular-nums text-slate-600 ${background}`}>
        <span className="mt-2.5 block">
          {number}
          {checked?.hasError && <span className="sr-only"> (has errors)</span>}
        </span>
      </th>
      {QUICK_ADD_COLUMNS.map((column, c) => {
        const issues = cellIssues(checked, column);
        const worst = issues.find((i) => i.level === 'error') ?? issues.find((i) => i.level === 'warning');
        return (
          <td key={column} className="border-b border-slate-100 px-2 pt-1.5 align-top">
            <input
              {...cellProps(c)}
              value={row[c] ?? ''}
              onChange={(event) => handlers.onChange(index, c, event.target.value)}
              onPaste={(event) => onPaste(event, c)}
              aria-label={`${LABELS[column]}, row ${number}`}
              aria-invalid={worst?.level === 'error' ? true : undefined}
              aria-describedby={issues.length ? issuesId(index, c) : undefined}
              list={column === 'tracking_type' ? 'quick-add-tracking-types' : undefined}
              autoComplete="off"
              spellCheck={false}
              className={`h-8 w-full rounded border px-2 font-mono text-sm focus:outline-none focus:ring-2 focus:ring-brand-500 ${
                worst?.level === 'error' ? 'border-red-400' : worst?.level === 'warning' ? 'border-amber-400' : 'border-slate-300'
              }`}
            />
            {/* The focused row's issues are listed whole below the grid; the others' on one line here. */}
            {!active && issues.length > 0 && (
              <p id={issuesId(index, c)} className="truncate text-xs leading-5" title={issues.map(issueText).join(' ')}>
                {issues.map((issue, i) => (
                  <span key={i} className={LEVEL_WORDS[issue.level].className}>
                    {i > 0 && ' '}
                    {issueText(issue)}
                  </span>
                ))}
              </p>
            )}
          </td>
        );
      })}
      <td className="border-b border-slate-100 px-2 pt-1.5 align-top">
        <button
          type="button"
          {...cellProps(REMOVE_COL)}
          onClick={() => handlers.onRemove(index)}
          aria-label={`Remove row ${number}`}
          className="rounded px-2 py-1 text-slate-500 hover:bg-slate-100 hover:text-red-700 focus:outline-none focus:ring-2 focus:ring-brand-500"
        >
          <span aria-hidden="true">✕</span>
        </button>
      </td>
    </tr>
  );
}

const issueText = (issue: CellIssue) => `${LEVEL_WORDS[issue.level].word}: ${issue.message}`;

/**
 * The focused row's issues in full, field by field, with a button for each offered fix. Each
 * list is the description of its input (the grid's one-line copy is left out for this row).
 */
export function RowIssues({ index, checked, onFix }: { index: number; checked: CheckedRow | undefined; onFix: (column: number, fix: string) => void }) {
  const number = index + 1;
  const fields = QUICK_ADD_COLUMNS.map((column, c) => ({ column, c, issues: cellIssues(checked, column) })).filter((field) => field.issues.length > 0);
  return (
    <section aria-label={`Issues of row ${number}`} className="rounded-lg border border-slate-200 bg-white px-4 py-3 text-sm shadow-sm">
      <h2 className="font-semibold text-slate-900">Row {number}</h2>
      {fields.length === 0 ? (
        <p className="mt-1 text-slate-600">{checked?.blank === false ? 'No issues.' : 'Empty: not sent.'}</p>
      ) : (
        <dl className="mt-1 space-y-1">
          {fields.map(({ column, c, issues }) => (
            <div key={column} className="flex flex-wrap gap-x-2">
              <dt className="font-medium text-slate-800">{LABELS[column]}</dt>
              <dd>
                <ul id={issuesId(index, c)} className="space-y-0.5">
                  {issues.map((issue, i) => (
                    <IssueLine key={i} issue={issue} onFix={(fix) => onFix(c, fix)} fieldLabel={`${LABELS[column]}, row ${number}`} />
                  ))}
                </ul>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

function IssueLine({ issue, onFix, fieldLabel }: { issue: CellIssue; onFix: (fix: string) => void; fieldLabel: string }) {
  const { word, className } = LEVEL_WORDS[issue.level];
  return (
    <li className={className}>
      <span className="font-semibold">{word}:</span> {issue.message}
      {issue.fix !== undefined && issue.level !== 'auto_fix' && (
        <button type="button" onClick={() => onFix(issue.fix ?? '')} aria-label={`Use ${issue.fix} for ${fieldLabel}`} className="ml-1 font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900">
          Use {issue.fix}
        </button>
      )}
    </li>
  );
}
