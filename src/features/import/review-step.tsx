import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { VirtualGridHandle } from '../../components/virtual-grid';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { PanelErrorBoundary } from '../../components/error-panel';
import type { ColumnTarget } from '../../spreadsheet/column-mapping';
import { plural } from '../../components/plural';
import type { FirstRows, ReviewCommand, ReviewFilter, ReviewRowView, ReviewState, RowNumbering } from '../../workers/import-protocol';
import { useImportSession } from './use-import-session';
import { dataColumnOf, gridColOf, ReviewGrid } from './review-grid';
import { BulkTools, FilterBar, isChecking, ReviewCountsLine } from './review-toolbar';
import { RowIssuesPanel } from './row-issues-panel';
import { useRowWindow } from './use-row-window';

const FORESIGHT_FILTERS: ReadonlySet<ReviewFilter> = new Set(['creates', 'updates', 'no_reference', 'possible_duplicates']);

/** Review and fix: the grid, its filters and bulk tools, and the selected row's issues. */
export function ReviewStep({
  columns,
  numbering,
  retried = false,
  state,
  firstRows,
  busy,
  error: stepError,
  onState,
  onBack,
  onContinue,
}: {
  columns: ColumnTarget[];
  numbering: RowNumbering;
  /** Fix & retry's rows: each carries what the service said about it, shown beside its own checks. */
  retried?: boolean;
  state: ReviewState;
  /** The rows the review was built with, shown at once. */
  firstRows?: FirstRows;
  /** Preparing the submission is under way. */
  busy: boolean;
  /** Why the last step's request failed (preparing the submission), as a sentence. */
  error: string | null;
  onState: (state: ReviewState) => void;
  onBack: () => void;
  onContinue: () => void;
}) {
  const session = useImportSession();
  const { rowAt, patchRow, ensure, failure } = useRowWindow(state.version, state.viewVersion, state.viewLength, firstRows);
  const [selected, setSelected] = useState<ReviewRowView | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = useCallback(
    (command: ReviewCommand) => {
      session
        .request('review', { command })
        .then((answer) => {
          setError(null);
          if (answer.row) patchRow(answer.row);
          onState(answer.state);
        })
        .catch((e: unknown) => setError((e as Error).message));
    },
    [session, onState, patchRow],
  );

  // Keep the issues panel in step with edits made anywhere.
  const selectedIndex = selected?.index;
  useEffect(() => {
    if (selectedIndex === undefined) return;
    let live = true;
    session
      .request('get-row', { row: selectedIndex })
      .then((answer) => live && setSelected(answer.row))
      .catch((e: unknown) => live && setError((e as Error).message));
    return () => {
      live = false;
    };
  }, [session, selectedIndex, state.version]);

  // Next error: asks the worker for the next error cell after the grid's focused one (it may be
  // far below or in a column scrolled out of sight) and moves the focus there.
  const grid = useRef<VirtualGridHandle>(null);
  const [noErrors, setNoErrors] = useState(false);
  const nextError = (direction: 1 | -1) => {
    const from = grid.current?.activeCell() ?? { row: 0, col: 0 };
    session
      .request('find-error', { from: from.row, column: dataColumnOf(from.col), direction })
      .then(({ found }) => {
        setNoErrors(found === null);
        if (found) grid.current?.focusCell(found.position, gridColOf(found.column));
      })
      .catch((e: unknown) => setError((e as Error).message));
  };
  const errorKeys = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'F8') return;
    event.preventDefault();
    nextError(event.shiftKey ? -1 : 1);
  };

  // Opened from a count of the Ready step (a foresight filter): the focus goes to that filter, not to the page's body.
  const filters = useRef<HTMLDivElement>(null);
  const openedOnFilter = useRef(state.filter);
  useEffect(() => {
    if (!FORESIGHT_FILTERS.has(openedOnFilter.current) || (document.activeElement !== document.body && document.activeElement !== null)) return;
    filters.current?.querySelector<HTMLButtonElement>('[aria-pressed="true"]')?.focus();
  }, []);

  const excludeLabel = state.filter === 'excluded' ? 'Restore' : 'Exclude';
  // While rows are checked, the only failure the step can meet is the check's own.
  const checkStopped = isChecking(state) && stepError !== null;
  return (
    <section aria-labelledby="review-heading" className="space-y-4" onKeyDown={errorKeys}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="review-heading" className="text-lg font-semibold text-slate-900">Review and fix</h2>
        <ReviewCountsLine state={state} stopped={checkStopped} />
      </div>
      {retried && (
        <p className="rounded-lg border border-brand-100 bg-brand-50 px-4 py-3 text-sm text-slate-800">
          These rows come back from the tracking service, which did not take them. Its message for each row is in the Service column and
          in the row’s issues; this console’s own checks run again as for any file. A row that passes them is sent again as it is now, so
          fix what the service names first.
        </p>
      )}
      {(error ?? failure) && <Alert tone="error">{error ?? failure}</Alert>}
      {stepError && <Alert tone="error">{stepError}</Alert>}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div ref={filters}>
          <FilterBar state={state} onFilter={(filter) => run({ type: 'set-filter', filter })} />
        </div>
        <div className="flex gap-2">
          <Button variant="secondary" aria-keyshortcuts="F8" disabled={state.viewLength === 0} onClick={() => nextError(1)}>
            Next error
          </Button>
          {/* aria-disabled, not disabled: a button that disables itself under the focus drops the focus to <body>. */}
          <Button variant="secondary" aria-disabled={!state.canUndo} className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50" onClick={() => state.canUndo && run({ type: 'undo' })}>
            Undo
          </Button>
          <Button variant="secondary" disabled={state.viewLength === 0} onClick={() => run({ type: 'exclude', rows: 'view', excluded: state.filter !== 'excluded' })}>
            {excludeLabel} {plural(state.viewLength, 'row')} shown
          </Button>
        </div>
      </div>
      <BulkTools state={state} columns={columns} onCommand={run} />
      <p id="review-grid-keys" className="text-xs text-slate-600">
        In the grid, arrow keys, Page Up/Down, Home/End and Ctrl+Home/End move between cells; Enter edits a cell, Escape cancels. F8 goes to
        the next error, Shift+F8 to the previous one. {retried
          ? `${numbering === 'Line' ? 'Lines' : 'Rows'} keep their numbers from the original file.`
          : numbering === 'Line'
            ? 'Lines are numbered as in the file, header line included.'
            : 'Rows are numbered as in the sheet.'}
      </p>
      {noErrors && (
        <p role="status" className="text-sm text-slate-700">
          No errors in the rows shown.
        </p>
      )}
      {state.viewLength === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-10 text-center text-sm text-slate-600">
          {state.counts.rows === 0 ? 'This file has no data rows under its header row: there is nothing to import.' : 'No rows match this filter.'}
        </p>
      ) : (
        <PanelErrorBoundary title="The rows could not be shown">
          <ReviewGrid
            ref={grid}
            columns={columns}
            numbering={numbering}
            serviceColumn={retried}
            viewLength={state.viewLength}
            rowAt={rowAt}
            ensure={ensure}
            selectedRow={selected?.index ?? null}
            onSelectRow={setSelected}
            onEdit={(row, column, value) => run({ type: 'edit', row, column, value })}
            onToggleExcluded={(row) => run({ type: 'exclude', rows: [row.index], excluded: !row.excluded })}
          />
        </PanelErrorBoundary>
      )}
      {selected && (
        <RowIssuesPanel
          row={selected}
          numbering={numbering}
          columns={columns}
          onApplyFix={(column, value) => run({ type: 'edit', row: selected.index, column, value })}
          onClose={() => setSelected(null)}
        />
      )}
      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-4">
        <Button variant="ghost" onClick={onBack}>Back to columns</Button>
        <div className="flex items-center gap-3">
          {state.counts.errorRows > 0 && !isChecking(state) && (
            <p className="text-sm text-slate-600">
              Rows with errors are skipped unless you fix or exclude them.
            </p>
          )}
          {isChecking(state) ? (
            <Button disabled>{checkStopped ? 'Continue' : 'Checking rows…'}</Button>
          ) : (
            <Button onClick={onContinue} disabled={state.counts.readyRows === 0 || busy}>
              Continue with {plural(state.counts.readyRows, 'ready row')}
            </Button>
          )}
        </div>
      </div>
    </section>
  );
}
