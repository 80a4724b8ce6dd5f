import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { formatCount as n, plural } from '../../components/plural';
import type { ColumnTarget } from '../../spreadsheet/column-mapping';
import type { ReviewCommand, ReviewFilter, ReviewState } from '../../workers/import-protocol';


const inputClass = 'rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm shadow-sm';

/** Whether rows of the review are still being checked: its counts are not whole yet. */
export const isChecking = (state: ReviewState) => state.checkedRows < state.counts.rows;

/** `stopped`: the check failed before the last row (its sentence is the step's alert). */
export function ReviewCountsLine({ state, stopped = false }: { state: ReviewState; stopped?: boolean }) {
  const { counts } = state;
  // aria-busy while checking: the live region is read out once, with the whole counts.
  return (
    <p aria-live="polite" aria-busy={isChecking(state) && !stopped} className="text-sm text-slate-700">
      <span className="font-semibold text-slate-900">{plural(counts.rows, 'row')}:</span>{' '}
      {isChecking(state) && stopped ? (
        <>checking stopped after {n(state.checkedRows)}.</>
      ) : isChecking(state) ? (
        <>checking them… {n(state.checkedRows)} checked so far.</>
      ) : (
        <>
          {n(counts.readyRows)} ready, {n(counts.errorRows)} with errors, {n(counts.warningRows)} with warnings, {n(counts.autoFixedRows)} auto-fixed,{' '}
          {n(counts.excludedRows)} excluded.
        </>
      )}
      {state.note && <span className="ml-2 font-medium text-brand-800">{state.note}</span>}
    </p>
  );
}

export function FilterBar({ state, onFilter }: { state: ReviewState; onFilter: (filter: ReviewFilter) => void }) {
  const { counts } = state;
  const filters: [ReviewFilter, string, number][] = [
    ['all', 'All', counts.rows],
    ['errors', 'Errors', counts.errorRows],
    ['warnings', 'Warnings', counts.warningRows],
    ['auto_fixed', 'Auto-fixed', counts.autoFixedRows],
    ['excluded', 'Excluded', counts.excludedRows],
    // Once the Ready step foresaw them: what the rows to send will do at the service.
    ...(state.foresight
      ? ([
          ['creates', 'Create', state.foresight.creates],
          ['updates', 'Update existing', state.foresight.updates],
          ['no_reference', 'No reference', state.foresight.withoutReference],
          ['possible_duplicates', 'Possible duplicates', state.foresight.possibleDuplicates],
        ] satisfies [ReviewFilter, string, number][])
      : []),
  ];
  return (
    <div role="group" aria-label="Show rows" className="inline-flex flex-wrap rounded-lg bg-slate-100 p-1">
      {filters.map(([filter, label, count]) => (
        <button
          key={filter}
          type="button"
          aria-pressed={state.filter === filter}
          onClick={() => onFilter(filter)}
          className={`rounded-md px-3 py-1.5 text-sm font-medium ${state.filter === filter ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'}`}
        >
          {label}{' '}
          <span className="ml-1 rounded-full bg-slate-200 px-1.5 text-xs text-slate-700">
            {/* A count of rows checked so far would be wrong; All is known from the read. */}
            {filter !== 'all' && isChecking(state) ? (
              <>
                <span aria-hidden="true">…</span>
                <span className="sr-only">not counted yet</span>
              </>
            ) : (
              n(count)
            )}
          </span>
        </button>
      ))}
    </div>
  );
}

/** Changes applied to every row of the current filter: set a column, find & replace, exclude. */
export function BulkTools({
  state,
  columns,
  onCommand,
}: {
  state: ReviewState;
  columns: ColumnTarget[];
  onCommand: (command: ReviewCommand) => void;
}) {
  const id = useId();
  const [setColumn, setSetColumn] = useState(0);
  const [setValue, setSetValue] = useState('');
  const [findColumn, setFindColumn] = useState(-1);
  const [find, setFind] = useState('');
  const [replace, setReplace] = useState('');
  const shown = state.viewLength;
  const scope = `${plural(shown, 'row')} shown`;

  const submitSet = (event: FormEvent) => {
    event.preventDefault();
    onCommand({ type: 'set-column', column: setColumn, value: setValue });
  };
  const submitReplace = (event: FormEvent) => {
    event.preventDefault();
    if (find) onCommand({ type: 'replace', column: findColumn < 0 ? null : findColumn, find, replace });
  };

  return (
    <div className="grid gap-3 rounded-lg border border-slate-200 bg-white p-3 shadow-sm lg:grid-cols-2">
      <form onSubmit={submitSet} aria-label="Set a column for the rows shown" className="flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor={`${id}-set-col`} className="block text-xs font-medium text-slate-700">Set column</label>
          <select id={`${id}-set-col`} className={`${inputClass} font-mono`} value={setColumn} onChange={(e) => setSetColumn(Number(e.target.value))}>
            {columns.map((column, i) => (
              <option key={column} value={i}>{column}</option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-set-value`} className="block text-xs font-medium text-slate-700">to value</label>
          <input id={`${id}-set-value`} className={`${inputClass} w-40`} value={setValue} onChange={(e) => setSetValue(e.target.value)} />
        </div>
        <Button type="submit" variant="secondary" disabled={shown === 0}>Apply to {scope}</Button>
      </form>
      <form onSubmit={submitReplace} aria-label="Find and replace in the rows shown" className="flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor={`${id}-find-col`} className="block text-xs font-medium text-slate-700">In</label>
          <select id={`${id}-find-col`} className={inputClass} value={findColumn} onChange={(e) => setFindColumn(Number(e.target.value))}>
            <option value={-1}>any column</option>
            {columns.map((column, i) => (
              <option key={column} value={i}>{column}</option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-find`} className="block text-xs font-medium text-slate-700">Find</label>
          <input id={`${id}-find`} className={`${inputClass} w-32`} value={find} onChange={(e) => setFind(e.target.value)} />
        </div>
        <div>
          <label htmlFor={`${id}-replace`} className="block text-xs font-medium text-slate-700">Replace with</label>
          <input id={`${id}-replace`} className={`${inputClass} w-32`} value={replace} onChange={(e) => setReplace(e.target.value)} />
        </div>
        <Button type="submit" variant="secondary" disabled={!find || shown === 0}>Replace</Button>
      </form>
    </div>
  );
}
