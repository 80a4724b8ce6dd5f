// One batch of the connected workspace opened by its id, at /batches/<id> (DESIGN §1 journey 12):
// what support staff open from a colleague's link, a job page, History or the Shipments filter.
// The batch comes from the service, polled every 10–15 s while it processes; its rows as sent
// from the team history when the console's server kept them, else rebuilt from its items. Then
// the same results as a job's: filters, each row's errors and warnings, downloads, fix & retry.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { HttpError } from '../../api/api-error';
import type { ApiTarget } from '../../api/http-client';
import { batchWithItemsQuery } from '../../api/imports';
import { hasTeamHistory, teamBatchOriginQuery, teamChunkRowsQuery, teamJobQuery } from '../../api/team-history';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { ErrorPanel } from '../../components/error-panel';
import { PageHeader } from '../../components/page-header';
import { formatCount as n, plural } from '../../components/plural';
import { ProgressBar } from '../../components/progress-bar';
import { StatusBadge } from '../../components/status-badge';
import { isFinalBatchStatus, type Batch } from '../../contract/batch';
import type { TeamBatchOrigin, TeamChunkRows } from '../../contract/team-history';
import type { JobSource } from '../../jobs/import-job';
import { explainServiceRowNumbers, type RowNumbering } from '../../spreadsheet/row-numbering';
import type { ResultsThread } from '../../jobs/thread/results-reader';
import { REBUILT_COLUMNS } from '../../jobs/thread/results-protocol';
import { ResultsBody } from './job-results';
import type { RetryHandoff } from './retry';
import { useOpenResults } from './use-job-results';

const notFound = (error: unknown) => error instanceof HttpError && error.status === 404;

export interface BatchResultsProps {
  batchId: string;
  target: ApiTarget;
  /** The results thread, which joins the batch's items to its rows and holds them. */
  thread: ResultsThread;
  onFixAndRetry: (handoff: RetryHandoff) => void;
  /** Shown inside a job's page (under its own heading), not as a page of its own. */
  within?: boolean;
}

export function BatchResults({ batchId, target, thread, onFixAndRetry, within = false }: BatchResultsProps) {
  const batchQuery = useQuery({ ...batchWithItemsQuery(target, batchId), retry: (failures, error) => !notFound(error) && failures < 2 });
  const team = hasTeamHistory(target);
  const originQuery = useQuery({ ...teamBatchOriginQuery(target, batchId), enabled: team });
  const owner = originQuery.data ?? null;
  const jobQuery = useQuery({ ...teamJobQuery(target, owner?.jobId ?? ''), enabled: owner !== null });
  const kept = owner !== null && jobQuery.data?.rowsKept.includes(owner.chunkId) === true;
  const numbering = jobQuery.data?.numbering ?? 'Row';
  const rowsQuery = useQuery({ ...teamChunkRowsQuery(target, owner?.jobId ?? '', owner?.chunkId ?? 0), enabled: kept });

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
  const lookup = [originQuery, jobQuery, rowsQuery].find((query) => query.isError);
  if (lookup?.error) {
    return <ErrorPanel title="The rows as sent could not be read from the team history" error={lookup.error} onRetry={() => void lookup.refetch()} />;
  }
  // Wait for the rows as sent where the history has them, so the grid does not change columns under the reader.
  const waiting = (team && originQuery.isPending) || (owner !== null && jobQuery.isPending) || (kept && rowsQuery.isPending);
  return (
    <div className="space-y-6">
      <BatchHeader
        batch={batchQuery.data}
        origin={owner}
        within={within}
        failureReason={failureInWords(batchQuery.data.failure_reason ?? null, kept ? (rowsQuery.data?.rowNumbers ?? null) : null, numbering)}
      />
      {waiting ? (
        <p role="status" className="text-sm text-slate-600">Reading the rows as sent…</p>
      ) : (
        <BatchRows
          thread={thread}
          batch={batchQuery.data}
          origin={owner}
          numbering={numbering}
          rowsAsSent={kept ? (rowsQuery.data ?? null) : null}
          onFixAndRetry={onFixAndRetry}
          within={within}
        />
      )}
    </div>
  );
}

/** The batch's failure reason, with the file's number beside each row_number it quotes where the rows as sent are known. */
function failureInWords(reason: string | null, rowNumbers: readonly number[] | null, numbering: RowNumbering): string | null {
  return reason && rowNumbers ? explainServiceRowNumbers(reason, rowNumbers, numbering) : reason;
}

function BatchHeader({ batch, origin, failureReason, within }: { batch: Batch; origin: TeamBatchOrigin | null; failureReason: string | null; within: boolean }) {
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
            Batch <span className="font-mono text-xs">{batch.id}</span> · {n(batch.completed_requests)} of {plural(batch.total_requests, 'row')} processed
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
            Created {new Date(batch.created_at).toLocaleString('en-GB')} · {plural(batch.total_requests, 'row')}
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
        <ProgressBar label={`Rows processed: ${n(batch.completed_requests)} of ${n(batch.total_requests)}`} value={batch.total_requests === 0 ? 1 : batch.completed_requests / batch.total_requests} />
        {!final && <p className="text-sm text-slate-600">The service is processing this batch; this page asks again every 10–15 seconds.</p>}
      </section>
    </>
  );
}

function BatchRows({
  thread,
  batch,
  origin,
  numbering,
  rowsAsSent,
  onFixAndRetry,
  within,
}: {
  thread: ResultsThread;
  batch: Batch;
  origin: TeamBatchOrigin | null;
  numbering: RowNumbering;
  rowsAsSent: TeamChunkRows | null;
  onFixAndRetry: (handoff: RetryHandoff) => void;
  within: boolean;
}) {
  const owner = { jobId: origin?.jobId ?? batch.id, chunkId: origin?.chunkId ?? 0 };
  // Opened again when a poll brings the batch further (its data is new with each answer).
  const key = `${batch.id}:${batch.status}:${batch.completed_requests}:${owner.jobId}:${owner.chunkId}:${rowsAsSent ? 'kept' : 'rebuilt'}:${numbering}`;
  const { state, retry } = useOpenResults(
    thread,
    key,
    (session) => thread.request('results-open-batch', { session, batch, owner, rowsAsSent: rowsAsSent && { rowNumbers: rowsAsSent.rowNumbers, body: rowsAsSent.body }, numbering }),
    'The batch’s results could not be read',
  );
  const source: JobSource = { kind: 'retry', jobId: owner.jobId, label: `batch ${batch.id}` };
  const results = state.results;
  return (
    <section aria-labelledby={within ? undefined : 'batch-results-heading'} className="space-y-4">
      {!within && <h2 id="batch-results-heading" className="text-lg font-semibold text-slate-900">Results</h2>}
      {!rowsAsSent && (
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
