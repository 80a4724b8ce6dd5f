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

/**
 * A plain table of inputs, one row per shipment. Arrow keys up and down (and Enter) move
 * between rows in the same column; Tab goes across. Each cell's issues are listed under it in
 * words and tied to the input by aria-describedby.
 */
export function QuickAddGrid({ rows, checked, handlers }: { rows: readonly QuickAddRow[]; checked: readonly CheckedRow[]; handlers: GridHandlers }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full text-sm">
        <caption className="sr-only">Shipments to add, one per row</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="w-12 px-2 py-2 text-right">Row</th>
            {QUICK_ADD_COLUMNS.map((column) => (
              <th key={column} scope="col" className="px-2 py-2">
                {LABELS[column]}
                <span className="block font-mono text-[11px] font-normal normal-case tracking-normal text-slate-500">{column}{column === 'name' ? ' (optional)' : ''}</span>
              </th>
            ))}
            <th scope="col" className="px-2 py-2"><span className="sr-only">Remove</span></th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row, index) => (
            <GridRow key={index} index={index} row={row} checked={checked[index]} signature={signature(checked[index])} last={index === rows.length - 1} handlers={handlers} />
          ))}
        </tbody>
      </table>
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
    <tr className={`align-top ${checked?.hasError ? 'bg-red-50/40' : ''}`}>
      <th scope="row" className="px-2 py-2 text-right font-normal tabular-nums text-slate-500">
        {number}
        {checked?.hasError && <span className="sr-only"> (has errors)</span>}
      </th>
      {QUICK_ADD_COLUMNS.map((column, c) => {
        const issues = checked?.blank ? [] : (checked?.issues[column] ?? []);
        const worst = issues.find((i) => i.level === 'error') ?? issues.find((i) => i.level === 'warning');
        const describedBy = issues.length ? `${cellId(index, c)}-issues` : undefined;
        return (
          <td key={column} className="min-w-36 px-2 py-1.5">
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
          </td>
        );
      })}
      <td className="px-2 py-1.5">
        <button
          type="button"
          onClick={() => handlers.onRemove(index)}
          aria-label={`Remove row ${number}`}
          className="rounded px-2 py-1 text-slate-500 hover:bg-slate-100 hover:text-red-700 focus:outline-none focus:ring-2 focus:ring-brand-500"
        >
          <span aria-hidden="true">✕</span>
        </button>
      </td>
    </tr>
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
