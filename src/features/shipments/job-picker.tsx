import { useQueries } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import type { Connection } from '../../api/connection-store';
import { shipmentsQueryOptions } from '../../api/shipments';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { formatCount as n, plural } from '../../components/plural';
import type { ImportJob } from '../../jobs/import-job';
import type { JobsSnapshot } from '../../jobs/job-store';
import { checkCounts, jobLabel, type CountCheck, type JobBatch } from './job-shipments';
import { PAGE_SIZE } from './shipments-search';


/** The import jobs of this browser that sent at least one batch, to pick one and see its shipments. */
export function JobPicker({ jobs, jobId, onChange, onReload }: { jobs: JobsSnapshot; jobId?: string; onChange: (jobId: string | undefined) => void; onReload: () => void }) {
  const id = useId();
  if (jobs.status === 'loading') {
    return (
      <p role="status" className="text-sm text-slate-600">
        Reading this browser’s import jobs…
      </p>
    );
  }
  if (jobs.status === 'unavailable') {
    return (
      <Alert tone="warning" title="Import jobs not available" action={<Button variant="secondary" onClick={onReload}>Retry</Button>}>
        {jobs.error ?? 'This browser’s import jobs could not be read.'} The shipments are listed all the same; filter them by a batch id instead.
      </Alert>
    );
  }
  const sent = jobs.jobs.filter((job) => job.chunks.some((chunk) => chunk.state.status === 'accepted'));
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        Import job
      </label>
      <select
        id={id}
        value={jobId ?? ''}
        onChange={(event) => onChange(event.target.value || undefined)}
        className="mt-1 w-96 max-w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm"
      >
        <option value="">All shipments</option>
        {/* A job named in the URL that this browser does not have stays selectable, so the select says what the URL asks. */}
        {jobId && !sent.some((job) => job.id === jobId) && <option value={jobId}>Import job {jobId}</option>}
        {sent.map((job) => (
          <option key={job.id} value={job.id}>
            {jobLabel(job)}
          </option>
        ))}
      </select>
      {sent.length === 0 && <p className="mt-1 text-sm text-slate-600">No import job of this browser has sent a batch yet.</p>}
    </div>
  );
}

/**
 * The picked job's batches, one button each (the list below shows the pressed one), what the job
 * counted, and whether the service's lists hold as many shipments: each batch's first page states
 * its total (the same query as the list's first page, so the batch shown costs nothing more).
 */
export function JobBatchesBar({
  job,
  batches,
  batchId,
  connection,
  onBatch,
}: {
  job: ImportJob;
  batches: readonly JobBatch[];
  batchId: string | undefined;
  connection: Connection;
  onBatch: (batchId: string) => void;
}) {
  const totals = useQueries({
    queries: batches.map((batch) => shipmentsQueryOptions(connection, { batchId: batch.batchId, page: 1, pageSize: PAGE_SIZE })),
  });
  const listed = totals.map((query) => (query.isError ? null : query.data?.pageInfo.total));
  const failed = totals.filter((query) => query.isError);
  const created = batches.reduce((sum, batch) => sum + batch.created, 0);
  const updated = batches.reduce((sum, batch) => sum + batch.updated, 0);
  return (
    <section aria-labelledby="job-batches-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="job-batches-heading" className="text-base font-semibold text-slate-900">
          Batches of {jobLabel(job)}
        </h2>
        <Link to="/imports/$jobId" params={{ jobId: job.id }} className="text-sm font-medium text-brand-700 underline">
          Open the import job
        </Link>
      </div>
      <p className="text-sm text-slate-700">
        The job created {n(created)} and updated {n(updated)} {updated === 1 ? 'shipment' : 'shipments'} in {plural(batches.length, 'batch', 'batches')}.{' '}
        {failed.length === 0 && <CountCheckSentence check={checkCounts(batches, listed)} />}
      </p>
      {failed.length > 0 && (
        <Alert tone="error" title="Counts not compared" action={<Button variant="secondary" onClick={() => failed.forEach((query) => void query.refetch())}>Retry</Button>}>
          The shipment lists of {plural(failed.length, 'batch', 'batches')} could not be read: {failed[0]?.error?.message}
        </Alert>
      )}
      <div role="group" aria-label="Batch shown" className="flex flex-wrap gap-2">
        {batches.map((batch) => (
          <button
            key={batch.batchId}
            type="button"
            aria-pressed={batch.batchId === batchId}
            onClick={() => onBatch(batch.batchId)}
            className="rounded-md border border-slate-300 px-3 py-1.5 text-left text-sm text-slate-800 hover:bg-slate-50 aria-pressed:border-brand-600 aria-pressed:bg-brand-50 aria-pressed:font-medium"
          >
            Batch {batch.position}: {n(batch.created)} created, {n(batch.updated)} updated{batch.finished ? '' : ' (processing)'}
          </button>
        ))}
      </div>
    </section>
  );
}

function CountCheckSentence({ check }: { check: CountCheck }) {
  switch (check.status) {
    case 'pending':
      return <span role="status">The service’s lists are compared with these counts once every batch has finished.</span>;
    case 'unknown':
      return <span role="status">The service does not say how many shipments each list holds, so the counts cannot be compared.</span>;
    case 'agrees':
      return <span role="status">The service lists {plural(check.total, 'shipment')} for these batches, as the job counted.</span>;
    case 'differs':
      return (
        <span role="status" className="font-medium text-amber-900">
          The service lists {plural(check.listed, 'shipment')} for these batches, but the job counted {n(check.counted)} created or updated.
        </span>
      );
  }
}
