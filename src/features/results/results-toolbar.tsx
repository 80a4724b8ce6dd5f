import { Button } from '../../components/button';
import { DownloadIcon } from '../../components/icons';
import { DOWNLOAD_LABEL, DOWNLOADS, type DownloadKind } from './failed-rows';
import { RESULT_FILTERS, type ResultFilter, type ResultsSummary } from '../../jobs/thread/results-protocol';
import { formatCount as n } from '../../components/plural';

export const FILTER_LABEL: Record<ResultFilter, string> = {
  failed: 'Failed',
  warnings: 'With warnings',
  created: 'Created',
  updated: 'Updated',
  'tracking-failed': 'Tracking failed',
  all: 'All',
};


export function ResultFilters({ results, filter, onChange }: { results: ResultsSummary; filter: ResultFilter; onChange: (filter: ResultFilter) => void }) {
  return (
    <div role="group" aria-label="Show rows" className="flex flex-wrap gap-2">
      {RESULT_FILTERS.map((option) => (
        <button
          key={option}
          type="button"
          aria-pressed={filter === option}
          onClick={() => onChange(option)}
          className={`rounded-full px-3 py-1.5 text-sm font-medium ring-1 ring-inset ${
            filter === option ? 'bg-brand-700 text-white ring-brand-700' : 'bg-white text-slate-800 ring-slate-300 hover:bg-slate-50'
          }`}
        >
          {FILTER_LABEL[option]} <span className="tabular-nums">{n(results.counts[option])}</span>
        </button>
      ))}
    </div>
  );
}

export interface DownloadRequest {
  kind: DownloadKind;
  format: 'csv' | 'xlsx';
}

export function ResultDownloads({
  results,
  withWarnings,
  onWithWarnings,
  busy,
  onDownload,
}: {
  results: ResultsSummary;
  withWarnings: boolean;
  onWithWarnings: (value: boolean) => void;
  busy: boolean;
  onDownload: (request: DownloadRequest) => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-x-5 gap-y-2">
      {DOWNLOADS.map((kind) => {
        const count = results.counts[kind];
        return (
          <div key={kind} role="group" aria-label={`Download ${DOWNLOAD_LABEL[kind]}`} className="flex items-center gap-1.5">
            <span className="text-sm text-slate-700">
              {n(count)} {count === 1 ? DOWNLOAD_LABEL[kind].replace('rows', 'row') : DOWNLOAD_LABEL[kind]}:
            </span>
            {(['csv', 'xlsx'] as const).map((format) => (
              <Button
                key={format}
                variant="secondary"
                disabled={busy || count === 0}
                onClick={() => onDownload({ kind, format })}
                aria-label={`Download ${DOWNLOAD_LABEL[kind]} as ${format.toUpperCase()}`}
                className="px-2.5 py-1"
              >
                <DownloadIcon className="size-4" aria-hidden="true" />
                {format.toUpperCase()}
              </Button>
            ))}
          </div>
        );
      })}
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" checked={withWarnings} onChange={(e) => onWithWarnings(e.target.checked)} className="size-4" />
        Add a warning column
      </label>
    </div>
  );
}
