// The results of one import job (DESIGN §1 journey 8), shown on the job page: every result item
// of every finished batch beside its row as sent, filters with counts, each problem with its
// column, downloads of failed rows, and fix & retry. The results thread holds the rows, writes
// the downloads and gives the rows to retry; the page holds counts and the rows in sight. The
// job route composes it.
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { ApiTarget } from '../../api/http-client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { downloadFile } from '../../components/download-file';
import type { ImportJob } from '../../jobs/import-job';
import type { ResultsThread } from '../../jobs/thread/results-reader';
import type { ResultFilter, ResultsSummary } from '../../jobs/thread/results-protocol';
import { DOWNLOAD_LABEL, downloadFileName } from './failed-rows';
import { ResultDetails } from './result-details';
import { ResultsGrid } from './results-grid';
import { FILTER_LABEL, ResultDownloads, ResultFilters, type DownloadRequest } from './results-toolbar';
import { buildRetryHandoff, retriesOf, type RetryHandoff } from './retry';
import { finishedBatches, useJobResults } from './use-job-results';
import { useResultRows } from './use-result-rows';
import { formatCount as n, plural } from '../../components/plural';


export interface JobResultsProps {
  job: ImportJob;
  /** The results thread (jobs/thread/results-reader.ts resultsThread; a test passes one run in-process). */
  thread: ResultsThread;
  /** The job store's database, which the thread reads the job's outcomes and payloads from. */
  database: string;
  /** The connection, for a job the console's server runs: its outcomes and payloads are read from there. */
  target?: ApiTarget | null;
  /** Every job, to find the retries of this one. */
  jobs: readonly ImportJob[];
  /** Opens the rows in the review grid as a new job linked to this one. */
  onFixAndRetry?: (handoff: RetryHandoff) => void;
}

export function JobResults({ job, thread, database, target = null, jobs, onFixAndRetry }: JobResultsProps) {
  const { state, retry } = useJobResults(job, thread, database, job.numbering, target);
  const accepted = job.chunks.filter((chunk) => chunk.state.status === 'accepted').length;
  const finished = finishedBatches(job);
  return (
    <section aria-labelledby="results-heading" className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="results-heading" className="text-lg font-semibold text-slate-900">
          Results
        </h2>
        <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
          <RetryLinks job={job} jobs={jobs} />
          {accepted > 0 && (
            <Link to="/shipments" search={{ job: job.id }} className="text-sm font-medium text-brand-700 underline">
              Shipments of this job
            </Link>
          )}
        </div>
      </div>
      {state.status === 'error' && (
        <Alert tone="error" title="Results not available" action={<Button variant="secondary" onClick={retry}>Retry</Button>}>
          {state.message}
        </Alert>
      )}
      {state.results === null ? (
        state.status === 'loading' && (
          <p role="status" className="text-sm text-slate-600">
            Reading the results of {plural(finished, 'finished batch', 'finished batches')}…
          </p>
        )
      ) : state.results.counts.all === 0 ? (
        <p role="status" className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">
          {finished === 0
            ? 'No batch of this job has finished yet. Each batch’s rows appear here, with what the service made of them, as soon as it finishes.'
            : 'The finished batches of this job have no result rows.'}
        </p>
      ) : (
        <>
          {finished < accepted && (
            <p role="status" className="text-sm text-slate-600">
              {n(finished)} of {plural(accepted, 'batch', 'batches')} finished; the rows of the others appear when they finish.
            </p>
          )}
          <ResultsBody job={job} results={state.results} thread={thread} onFixAndRetry={onFixAndRetry} />
        </>
      )}
    </section>
  );
}

function RetryLinks({ job, jobs }: { job: ImportJob; jobs: readonly ImportJob[] }) {
  const retries = retriesOf(jobs, job.id);
  const original = job.source.kind === 'retry' ? job.source : null;
  if (!original && retries.length === 0) return null;
  return (
    <p className="text-sm text-slate-700">
      {original && (
        <>
          This job is a{' '}
          <a href={original.batchId ? `/batches/${original.batchId}` : `/imports/${original.jobId}`} className="font-medium text-brand-700 underline">
            {original.label}
          </a>
          .{' '}
        </>
      )}
      {retries.length > 0 && (
        <>
          Retried in{' '}
          {retries.map((retryJob, i) => (
            <span key={retryJob.id}>
              {i > 0 && ', '}
              <a href={`/imports/${retryJob.id}`} className="font-medium text-brand-700 underline">
                the job of {new Date(retryJob.createdAt).toLocaleString('en-GB')}
              </a>
            </span>
          ))}
          .
        </>
      )}
    </p>
  );
}

/**
 * Filters, downloads, fix & retry, the grid and a row's details over one set of results held by
 * the thread: a job's (its batches so far) or one batch's opened by its id. `job` names the files
 * and the retry.
 */
export function ResultsBody({
  job,
  results,
  thread,
  onFixAndRetry,
  batchId,
}: {
  job: Pick<ImportJob, 'id' | 'source'>;
  results: ResultsSummary;
  thread: ResultsThread;
  onFixAndRetry?: (handoff: RetryHandoff) => void;
  /** The results are one batch's, opened by its id: a retry links back to that batch. */
  batchId?: string;
}) {
  const [filter, setFilter] = useState<ResultFilter>(() => (results.counts.failed > 0 ? 'failed' : 'all'));
  const [selected, setSelected] = useState<number | null>(null);
  const [withWarnings, setWithWarnings] = useState(false);
  const [download, setDownload] = useState<{ busy: boolean; note: string | null; error: string | null; request: DownloadRequest | null }>({
    busy: false,
    note: null,
    error: null,
    request: null,
  });
  const [retryError, setRetryError] = useState<string | null>(null);
  const { rowAt, ensure } = useResultRows(thread, results, filter);

  const { failed, 'tracking-failed': trackingFailed } = results.counts;
  const count = results.counts[filter];

  const onDownload = async (request: DownloadRequest) => {
    const { kind, format } = request;
    setDownload({ busy: true, note: `Writing the ${DOWNLOAD_LABEL[kind]} as ${format.toUpperCase()}…`, error: null, request });
    try {
      const { file, rows } = await thread.request('results-export', { session: results.session, filter: kind, format, withWarnings, sheetName: DOWNLOAD_LABEL[kind] });
      const fileName = downloadFileName(job.source, kind, format);
      downloadFile(file, fileName, file.type);
      setDownload({ busy: false, note: `Downloaded ${fileName} (${plural(rows, 'row')}).`, error: null, request });
    } catch (error) {
      setDownload({ busy: false, note: null, error: `The file could not be written: ${error instanceof Error ? error.message : String(error)}`, request });
    }
  };

  const onRetry = async (kind: 'failed' | 'tracking-failed') => {
    if (!onFixAndRetry) return;
    setRetryError(null);
    try {
      onFixAndRetry(buildRetryHandoff(job, await thread.request('results-retry', { session: results.session, filter: kind }), kind, batchId));
    } catch (error) {
      setRetryError(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <ResultFilters
          results={results}
          filter={filter}
          onChange={(next) => {
            setFilter(next);
            setSelected(null);
          }}
        />
        {onFixAndRetry && (
          <div className="flex flex-wrap gap-2">
            {failed > 0 && <Button onClick={() => void onRetry('failed')}>Fix and retry {plural(failed, 'row')}</Button>}
            {trackingFailed > 0 && (
              <Button variant="secondary" onClick={() => void onRetry('tracking-failed')}>
                Fix and retry {plural(trackingFailed, 'row')} whose tracking failed
              </Button>
            )}
          </div>
        )}
      </div>
      {retryError && (
        <Alert tone="error" title="The rows to retry could not be read">
          {retryError}
        </Alert>
      )}
      <ResultDownloads results={results} withWarnings={withWarnings} onWithWarnings={setWithWarnings} busy={download.busy} onDownload={(request) => void onDownload(request)} />
      <p role="status" className="min-h-5 text-sm text-slate-600">
        {download.note}
      </p>
      {download.error && (
        <Alert
          tone="error"
          title="Download failed"
          action={download.request && <Button variant="secondary" onClick={() => download.request && void onDownload(download.request)}>Retry</Button>}
        >
          {download.error}
        </Alert>
      )}
      {count === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">No row is {FILTER_LABEL[filter].toLowerCase()}.</p>
      ) : (
        <div className="grid gap-4 xl:grid-cols-[minmax(0,1fr)_22rem]">
          <ResultsGrid results={results} filter={filter} numbering={results.numbering} selected={selected} onSelect={setSelected} rowAt={rowAt} ensure={ensure} />
          <ResultDetails jobId={job.id} row={selected === null ? undefined : rowAt(selected)} columns={results.columns} numbering={results.numbering} />
        </div>
      )}
    </div>
  );
}
