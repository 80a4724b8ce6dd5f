import { type ClipboardEvent, type KeyboardEvent, memo } from 'react';
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

export function cellId(row: number, column: number): string {
  return `quick-add-${row}-${column}`;
}

export interface GridHandlers {
  onChange: (row: number, column: number, value: string) => void;
  /** Text with a tab or a line break was pasted into a cell; the grid lays it out from there. */
  onPaste: (row: number, column: number, text: string) => void;
  onRemove: (row: number) => void;
  /** Enter on the last row: the grid grows by a row (within the cap) and focus goes there. */
  onEnterLastRow: (row: number, column: number) => void;
}

// One grid template for the header and every row, so the columns line up without a table layout:
// a <table>'s column widths depend on every cell, so one keystroke laid out all 2,500 inputs again.
const COLUMNS = 'grid grid-cols-[3.5rem_repeat(4,minmax(9rem,1fr))_minmax(12rem,1.5fr)_3rem]';
// Rows out of sight skip style, layout and paint until they scroll near (their height is
// remembered once seen): a paste of 500 rows lays out only the rows on screen.
const OFFSCREEN = '[content-visibility:auto] [contain-intrinsic-size:auto_3.25rem]';

/**
 * A grid of inputs, one row per shipment, with table semantics (role table, row, cell). Arrow
 * keys up and down (and Enter) move between rows in the same column; Tab goes across. Each
 * cell's issues are listed under it in words and tied to the input by aria-describedby.
 */
export function QuickAddGrid({ rows, checked, handlers }: { rows: readonly QuickAddRow[]; checked: readonly CheckedRow[]; handlers: GridHandlers }) {
  return (
    <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <div role="table" aria-label="Shipments to add, one per row" aria-rowcount={rows.length + 1} className="min-w-[60rem] text-sm">
        <div role="rowgroup" className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <div role="row" aria-rowindex={1} className={COLUMNS}>
            <div role="columnheader" className="px-2 py-2 text-right">Row</div>
            {QUICK_ADD_COLUMNS.map((column) => (
              <div key={column} role="columnheader" className="px-2 py-2">
                {LABELS[column]}
                <span className="block font-mono text-[11px] font-normal normal-case tracking-normal text-slate-500">{column}{column === 'name' ? ' (optional)' : ''}</span>
              </div>
            ))}
            <div role="columnheader" className="px-2 py-2"><span className="sr-only">Remove</span></div>
          </div>
        </div>
        <div role="rowgroup" className="divide-y divide-slate-100 border-t border-slate-200">
          {rows.map((row, index) => (
            <GridRow key={index} index={index} row={row} checked={checked[index]} signature={signature(checked[index])} last={index === rows.length - 1} handlers={handlers} />
          ))}
        </div>
      </div>
      <datalist id="quick-add-tracking-types">
        <option value="container" />
        <option value="bill_of_lading" />
        <option value="booking" />
      </datalist>
    </div>
  );
}

/** Rows re-render only when their text or their issues change: a paste of 500 rows stays quick. */
function signature(checked: CheckedRow | undefined): string {
  return checked ? JSON.stringify(checked.issues) : '';
}

const GridRow = memo(function GridRow({
  index,
  row,
  checked,
  last,
  handlers,
}: {
  index: number;
  row: QuickAddRow;
  checked: CheckedRow | undefined;
  signature: string;
  last: boolean;
  handlers: GridHandlers;
}) {
  const number = index + 1;
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>, column: number) => {
    const down = event.key === 'ArrowDown' || (event.key === 'Enter' && !event.shiftKey);
    const up = event.key === 'ArrowUp' || (event.key === 'Enter' && event.shiftKey);
    if (!down && !up) return;
    event.preventDefault();
    if (down && last && event.key === 'Enter') {
      handlers.onEnterLastRow(index, column);
      return;
    }
    document.getElementById(cellId(index + (down ? 1 : -1), column))?.focus();
  };
  const onPaste = (event: ClipboardEvent<HTMLInputElement>, column: number) => {
    const text = event.clipboardData.getData('text/plain');
    if (!/[\t\n]/.test(text)) return;
    event.preventDefault();
    handlers.onPaste(index, column, text);
  };
  return (
    <div role="row" aria-rowindex={number + 1} className={`${COLUMNS} ${OFFSCREEN} items-start ${checked?.hasError ? 'bg-red-50/40' : ''}`}>
      <div role="rowheader" className="px-2 py-2 text-right tabular-nums text-slate-600">
        {number}
        {checked?.hasError && <span className="sr-only"> (has errors)</span>}
      </div>
      {QUICK_ADD_COLUMNS.map((column, c) => {
        const issues = checked?.blank ? [] : (checked?.issues[column] ?? []);
        const worst = issues.find((i) => i.level === 'error') ?? issues.find((i) => i.level === 'warning');
        const describedBy = issues.length ? `${cellId(index, c)}-issues` : undefined;
        return (
          <div key={column} role="cell" className="min-w-0 px-2 py-1.5">
            <input
              id={cellId(index, c)}
              value={row[c] ?? ''}
              onChange={(event) => handlers.onChange(index, c, event.target.value)}
              onKeyDown={(event) => onKeyDown(event, c)}
              onPaste={(event) => onPaste(event, c)}
              aria-label={`${LABELS[column]}, row ${number}`}
              aria-invalid={worst?.level === 'error' ? true : undefined}
              aria-describedby={describedBy}
              list={column === 'tracking_type' ? 'quick-add-tracking-types' : undefined}
              autoComplete="off"
              spellCheck={false}
              className={`w-full rounded border px-2 py-1 font-mono text-sm focus:outline-none focus:ring-2 focus:ring-brand-500 ${
                worst?.level === 'error' ? 'border-red-400' : worst?.level === 'warning' ? 'border-amber-400' : 'border-slate-300'
              }`}
            />
            {describedBy && (
              <ul id={describedBy} className="mt-1 space-y-0.5 text-xs">
                {issues.map((issue, i) => (
                  <IssueLine key={i} issue={issue} onFix={(fix) => handlers.onChange(index, c, fix)} fieldLabel={`${LABELS[column]}, row ${number}`} />
                ))}
              </ul>
            )}
          </div>
        );
      })}
      <div role="cell" className="px-2 py-1.5">
        <button
          type="button"
          onClick={() => handlers.onRemove(index)}
          aria-label={`Remove row ${number}`}
          className="rounded px-2 py-1 text-slate-500 hover:bg-slate-100 hover:text-red-700 focus:outline-none focus:ring-2 focus:ring-brand-500"
        >
          <span aria-hidden="true">✕</span>
        </button>
      </div>
    </div>
  );
}, (before, after) => before.row === after.row && before.signature === after.signature && before.last === after.last && before.index === after.index && before.handlers === after.handlers && before.checked?.blank === after.checked?.blank);

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
