import { useId, useState } from 'react';
import { FILE_HEADERS, REQUIRED_FILE_HEADERS, customFieldHeader } from '../../contract/import-file';
import { formatCount, plural } from '../../components/plural';
import { StatusBadge } from '../../components/status-badge';
import {
  type ColumnMapping,
  type ColumnMappingEntry,
  type ColumnTarget,
  columnLetter,
  describeMissingTargets,
  summarizeIgnoredColumns,
} from '../../spreadsheet/column-mapping';

const IGNORE = '';
/** Ignored columns listed at most when expanded; a 5,000-column file would drown the page. */
const IGNORED_SHOWN = 200;

const matchLabels: Record<ColumnMappingEntry['match'], { tone: 'success' | 'warning' | 'neutral' | 'progress'; text: string }> = {
  exact: { tone: 'success', text: 'Exact match' },
  suggested: { tone: 'warning', text: 'Suggested' },
  chosen: { tone: 'progress', text: 'Your choice' },
  remembered: { tone: 'progress', text: 'Remembered' },
  unknown: { tone: 'neutral', text: 'Ignored' },
  unnamed: { tone: 'neutral', text: 'Ignored' },
  duplicate: { tone: 'neutral', text: 'Ignored' },
  ignored: { tone: 'neutral', text: 'Ignored' },
};

export function ColumnMapper({
  mapping,
  samples,
  customFieldSlugs,
  onChange,
}: {
  mapping: ColumnMapping;
  /** A few data rows under the header, for showing what each column holds. */
  samples: string[][];
  customFieldSlugs: readonly string[] | null;
  onChange: (column: number, target: ColumnTarget | null) => void;
}) {
  // While a required target is still missing, the columns no rule mapped are where it must come
  // from: they are shown with their selects from the start, until the user hides them.
  const [showIgnored, setShowIgnored] = useState(() => describeMissingTargets(mapping) !== null);
  // A row never moves while the user works on it (a remounted select loses the focus and its
  // typeahead): columns the user decides on stay in the main table, and a column mapped from
  // the ignored list stays in that list until the list is closed.
  const [pinned, setPinned] = useState<ReadonlySet<number>>(new Set());
  const decided = (entry: ColumnMappingEntry) => (entry.target !== null || entry.match === 'ignored') && !pinned.has(entry.column);
  const mapped = mapping.filter(decided);
  const ignored = mapping.filter((entry) => !decided(entry));
  const chooseInIgnored = (column: number, target: ColumnTarget | null) => {
    setPinned((current) => new Set(current).add(column));
    onChange(column, target);
  };
  const toggleIgnored = () => {
    setShowIgnored((shown) => !shown);
    setPinned(new Set());
  };
  const missing = describeMissingTargets(mapping);
  const ignoredSummary = summarizeIgnoredColumns(mapping);
  const targets = targetOptions(mapping, customFieldSlugs);

  return (
    <section aria-labelledby="mapping-heading" className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="mapping-heading" className="text-lg font-semibold text-slate-900">Columns</h2>
        <p className="text-sm text-slate-600">
          {mapping.filter((entry) => entry.target !== null).length} of {plural(mapping.length, 'column')} imported. Required: {REQUIRED_FILE_HEADERS.join(', ')}.
        </p>
      </div>
      {missing && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
          {missing}
        </p>
      )}
      <MappingTable entries={mapped} samples={samples} targets={targets} onChange={onChange} />
      {ignored.length > 0 && (
        <div className="space-y-3">
          <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
            <span>{ignoredSummary}</span>
            <button type="button" className="font-medium text-brand-700 underline-offset-2 hover:underline" aria-expanded={showIgnored} onClick={toggleIgnored}>
              {showIgnored ? 'Hide ignored columns' : 'Show ignored columns'}
            </button>
          </div>
          {showIgnored && (
            <>
              <MappingTable entries={ignored.slice(0, IGNORED_SHOWN)} samples={samples} targets={targets} onChange={chooseInIgnored} />
              {ignored.length > IGNORED_SHOWN && (
                <p className="text-sm text-slate-600">
                  Showing the first {IGNORED_SHOWN} of {formatCount(ignored.length)} ignored columns.
                </p>
              )}
            </>
          )}
        </div>
      )}
    </section>
  );
}

function targetOptions(mapping: ColumnMapping, customFieldSlugs: readonly string[] | null): string[] {
  const custom = new Set((customFieldSlugs ?? []).map(customFieldHeader));
  for (const entry of mapping) if (entry.target?.startsWith('cf_')) custom.add(entry.target);
  return [...FILE_HEADERS, ...[...custom].sort()];
}

interface RowProps {
  samples: string[][];
  targets: string[];
  onChange: (column: number, target: ColumnTarget | null) => void;
}

function MappingTable({ entries, ...rowProps }: { entries: readonly ColumnMappingEntry[] } & RowProps) {
  if (entries.length === 0) return null;
  return (
    <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="px-4 py-2.5">Column in your file</th>
            <th scope="col" className="px-4 py-2.5">Sample values</th>
            <th scope="col" className="px-4 py-2.5">Imported as</th>
            <th scope="col" className="px-4 py-2.5">Match</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {entries.map((entry) => (
            <MappingRow key={entry.column} entry={entry} {...rowProps} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function MappingRow({ entry, samples, targets, onChange }: { entry: ColumnMappingEntry } & RowProps) {
  const id = useId();
  const label = matchLabels[entry.match];
  const values = samples
    .map((row) => row[entry.column] ?? '')
    .filter(Boolean)
    .slice(0, 3);
  const headerText = entry.header.trim() ? entry.header : '(no header)';
  return (
    <tr>
      <th scope="row" className="px-4 py-2.5 text-left font-medium text-slate-900">
        <span className="mr-2 inline-block w-7 rounded bg-slate-100 text-center font-mono text-xs text-slate-600">{columnLetter(entry.column)}</span>
        <span className="whitespace-pre">{headerText}</span>
      </th>
      <td className="max-w-xs truncate px-4 py-2.5 font-mono text-xs text-slate-600" title={values.join(' · ')}>
        {values.join(' · ') || '—'}
      </td>
      <td className="px-4 py-2.5">
        <label htmlFor={id} className="sr-only">Import column {columnLetter(entry.column)} ({headerText}) as</label>
        <select
          id={id}
          value={entry.target ?? IGNORE}
          onChange={(e) => onChange(entry.column, e.target.value === IGNORE ? null : (e.target.value as ColumnTarget))}
          className="w-52 rounded-md border border-slate-300 bg-white px-2 py-1.5 font-mono text-sm shadow-sm"
        >
          <option value={IGNORE}>— ignore —</option>
          {targets.map((target) => (
            <option key={target} value={target}>{target}</option>
          ))}
        </select>
      </td>
      <td className="px-4 py-2.5">
        <StatusBadge tone={label.tone}>{label.text}</StatusBadge>
        {entry.reason && <p className="mt-1 text-xs text-slate-600">{entry.reason}</p>}
        {entry.warning && <p className="mt-1 text-xs font-medium text-amber-800">{entry.warning}</p>}
      </td>
    </tr>
  );
}
