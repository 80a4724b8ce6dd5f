// One batch of the connected workspace opened by its id, at /batches/<id> (DESIGN §1 journey 12):
// what support staff open from a colleague's link, a job page, History or the Shipments filter.
// The batch comes from the service, polled every 10–15 s while it processes; its rows as sent
// from the team history when the console's server kept them, else rebuilt from its items. The
// results thread makes both requests and holds what they bring; the page shows the batch's
// headline and the same results as a job's: filters, each row's errors and warnings, downloads,
// fix & retry.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { HttpError } from '../../api/api-error';
import { type ApiTarget, httpDepsWith } from '../../api/http-client';
import { batchKeys, fetchBatchBody } from '../../api/imports';
import { hasTeamHistory, teamBatchOriginQuery, teamChunkRowsBody, teamJobQuery, teamRowsKey } from '../../api/team-history';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { ErrorPanel } from '../../components/error-panel';
import { PageHeader } from '../../components/page-header';
import { formatCount as n, plural } from '../../components/plural';
import { ProgressBar } from '../../components/progress-bar';
import { StatusBadge } from '../../components/status-badge';
import { isFinalBatchStatus } from '../../contract/batch';
import type { TeamBatchOrigin } from '../../contract/team-history';
import type { JobSource } from '../../jobs/import-job';
import type { ResultsThread } from '../../jobs/thread/results-reader';
import { type BatchResultsSummary, type BatchView, REBUILT_COLUMNS, type RowsAsSentHeld } from '../../jobs/thread/results-protocol';
import { ResultsBody } from './job-results';
import type { RetryHandoff } from './retry';
import { type JobResultsState, useOpenResults } from './use-job-results';

const notFound = (error: unknown) => error instanceof HttpError && error.status === 404;

/** GET /api/v1/shipments/imports/{id} made by the results thread, which reads it and holds the batch's items: the page gets its headline. */
export async function readBatchView(target: ApiTarget, batchId: string, thread: ResultsThread, signal?: AbortSignal): Promise<BatchView> {
  return thread.batchView(await fetchBatchBody(target, batchId, signal, httpDepsWith(thread.fetchReading({ kind: 'batch-view' }))));
}

/** A chunk's rows as sent, fetched from the team history by the results thread, which holds them: the page learns how many. */
export async function readRowsAsSent(target: ApiTarget, owner: { jobId: string; chunkId: number }, thread: ResultsThread, signal?: AbortSignal): Promise<RowsAsSentHeld> {
  return thread.rowsAsSentHeld(await teamChunkRowsBody(target, owner.jobId, owner.chunkId, signal, httpDepsWith(thread.fetchReading({ kind: 'rows-as-sent', ...owner }))));
}

/**
 * The batch as the page shows it (readBatchView), polled every 10–15 s (the spec's spacing, with
 * jitter) until it is completed or failed. Not kept once the page closes: the thread holds only
 * the batches read last, so a page opened again reads it again.
 */
export const batchViewQuery = (target: ApiTarget, batchId: string, thread: ResultsThread) =>
  // The thread carries the request and reads the answer, it does not change it: not part of the key.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  queryOptions({
    queryKey: batchKeys.view(target, batchId),
    queryFn: ({ signal }) => readBatchView(target, batchId, thread, signal),
    refetchInterval: (query) => (query.state.data && isFinalBatchStatus(query.state.data.status) ? false : 10_000 + Math.round(Math.random() * 5_000)),
    gcTime: 0,
  });

/** A chunk's rows as sent (readRowsAsSent), read again when the page opens again. */
export const rowsAsSentQuery = (target: ApiTarget, owner: { jobId: string; chunkId: number }, thread: ResultsThread) =>
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  queryOptions({
    queryKey: teamRowsKey(target, owner.jobId, owner.chunkId),
    queryFn: ({ signal }) => readRowsAsSent(target, owner, thread, signal),
    staleTime: Infinity,
    gcTime: 0,
  });

export interface BatchResultsProps {
  batchId: string;
  target: ApiTarget;
  /** The results thread, which reads the batch and its rows as sent, joins them and holds them. */
  thread: ResultsThread;
  onFixAndRetry: (handoff: RetryHandoff) => void;
  /** Shown inside a job's page (under its own heading), not as a page of its own. */
  within?: boolean;
}

export function BatchResults({ batchId, target, thread, onFixAndRetry, within = false }: BatchResultsProps) {
  const batchQuery = useQuery({ ...batchViewQuery(target, batchId, thread), retry: (failures, error) => !notFound(error) && failures < 2 });
  const team = hasTeamHistory(target);
  const originQuery = useQuery({ ...teamBatchOriginQuery(target, batchId), enabled: team });
  const origin = originQuery.data ?? null;
  const jobQuery = useQuery({ ...teamJobQuery(target, origin?.jobId ?? ''), enabled: origin !== null });
  const kept = origin !== null && jobQuery.data?.rowsKept.includes(origin.chunkId) === true;
  const numbering = jobQuery.data?.numbering ?? 'Row';
  const owner = { jobId: origin?.jobId ?? batchId, chunkId: origin?.chunkId ?? 0 };
  const rowsQuery = useQuery({ ...rowsAsSentQuery(target, owner, thread), enabled: kept });
  const lookup = [originQuery, jobQuery, rowsQuery].find((query) => query.isError);
  // Wait for the rows as sent where the history has them, so the grid does not change columns under the reader.
  const waiting = (team && originQuery.isPending) || (origin !== null && jobQuery.isPending) || (kept && rowsQuery.isPending);
  const batch = batchQuery.data;
  // Opened again when a poll brings the batch further (the thread holds the batch as last read).
  const openKey = batch && !lookup && !waiting ? `${batch.id}:${batch.status}:${batch.completed}:${owner.jobId}:${owner.chunkId}:${kept ? 'kept' : 'rebuilt'}:${numbering}` : null;
  const opened = useOpenResults<BatchResultsSummary>(
    thread,
    openKey,
    (session) => thread.request('results-open-batch', { session, batchId, owner, rowsAsSent: kept, numbering }),
    'The batch’s results could not be read',
  );
  // The thread may no longer hold what it read (another page's batches since): read them again, then open.
  const retry = () => void Promise.all([batchQuery.refetch(), kept ? rowsQuery.refetch() : null]).then(opened.retry);

  if (batchQuery.isPending) return <p role="status" className="text-slate-600">Loading batch {batchId}…</p>;
  if (batchQuery.isError) {
    if (notFound(batchQuery.error)) {
      return (
        <Alert tone="warning" title="No such batch">
          The service has no batch {batchId} in the workspace this console is connected to. Check the id: it must be written in full, and a batch of another workspace is not shown.
        </Alert>
      );
    }
    return <ErrorPanel title="The batch could not be read" error={batchQuery.error} onRetry={() => void batchQuery.refetch()} />;
  }
  if (lookup?.error) {
    return <ErrorPanel title="The rows as sent could not be read from the team history" error={lookup.error} onRetry={() => void lookup.refetch()} />;
  }
  const view = batchQuery.data;
  return (
    <div className="space-y-6">
      <BatchHeader batch={view} origin={origin} within={within} failureReason={opened.state.results?.failureReason ?? view.failureReason} />
      {waiting ? (
        <p role="status" className="text-sm text-slate-600">Reading the rows as sent…</p>
      ) : (
        <BatchRows thread={thread} batch={view} owner={owner} rebuilt={!kept} state={opened.state} retry={retry} onFixAndRetry={onFixAndRetry} within={within} />
      )}
    </div>
  );
}

function BatchHeader({ batch, origin, failureReason, within }: { batch: BatchView; origin: TeamBatchOrigin | null; failureReason: string | null; within: boolean }) {
  const final = isFinalBatchStatus(batch.status);
  const status = (
    <StatusBadge tone={batch.status === 'completed' ? 'success' : batch.status === 'failed' ? 'danger' : 'progress'}>
      {batch.status === 'completed' ? 'Completed' : batch.status === 'failed' ? 'Failed' : 'Processing'}
    </StatusBadge>
  );
  const failure = failureReason && (
    <Alert tone="error" title="The batch failed">
      {failureReason}
    </Alert>
  );
  if (within) {
    return (
      <>
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
          {status}
          <span>
            Batch <span className="font-mono text-xs">{batch.id}</span> · {n(batch.completed)} of {plural(batch.total, 'row')} processed
          </span>
        </div>
        {failure}
      </>
    );
  }
  return (
    <>
      <PageHeader
        title={`Batch ${batch.id}`}
        description={
          <>
            Created {new Date(batch.createdAt).toLocaleString('en-GB')} · {plural(batch.total, 'row')}
            {origin && (
              <>
                {' '}
                · sent as part of{' '}
                <Link to="/imports/$jobId" params={{ jobId: origin.jobId }} className="font-medium text-brand-700 underline">
                  {origin.sourceName}
                </Link>
                {origin.sentBy && <> by {origin.sentBy}</>}
              </>
            )}
          </>
        }
        actions={status}
      />
      {failure}
      <section aria-labelledby="batch-progress-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="batch-progress-heading" className="text-lg font-semibold text-slate-900">Progress</h2>
        <ProgressBar label={`Rows processed: ${n(batch.completed)} of ${n(batch.total)}`} value={batch.total === 0 ? 1 : batch.completed / batch.total} />
        {!final && <p className="text-sm text-slate-600">The service is processing this batch; this page asks again every 10–15 seconds.</p>}
      </section>
    </>
  );
}

function BatchRows({
  thread,
  batch,
  owner,
  rebuilt,
  state,
  retry,
  onFixAndRetry,
  within,
}: {
  thread: ResultsThread;
  batch: BatchView;
  owner: { jobId: string; chunkId: number };
  rebuilt: boolean;
  state: JobResultsState<BatchResultsSummary>;
  retry: () => void;
  onFixAndRetry: (handoff: RetryHandoff) => void;
  within: boolean;
}) {
  const source: JobSource = { kind: 'retry', jobId: owner.jobId, label: `batch ${batch.id}` };
  const results = state.results;
  return (
    <section aria-labelledby={within ? undefined : 'batch-results-heading'} className="space-y-4">
      {!within && <h2 id="batch-results-heading" className="text-lg font-semibold text-slate-900">Results</h2>}
      {rebuilt && (
        <p className="text-sm text-slate-700">
          The rows as sent are not in this console&apos;s team history, so each row is rebuilt from the service&apos;s result item: {REBUILT_COLUMNS.join(', ')}. Rows are numbered as the service numbered them.
        </p>
      )}
      {state.status === 'error' && (
        <Alert tone="error" title="Results not available" action={<Button variant="secondary" onClick={retry}>Retry</Button>}>
          {state.message}
        </Alert>
      )}
      {results === null ? (
        state.status === 'loading' && <p role="status" className="text-sm text-slate-600">Reading the batch’s rows…</p>
      ) : results.counts.all === 0 ? (
        <p role="status" className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">This batch has no result rows.</p>
      ) : (
        <ResultsBody job={{ id: owner.jobId, source }} results={results} thread={thread} onFixAndRetry={onFixAndRetry} batchId={batch.id} />
      )}
    </section>
  );
}
