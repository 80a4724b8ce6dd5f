import { Link } from '@tanstack/react-router';
import { useConnection } from '../../api/use-connection';
import { useState } from 'react';
import { Button, buttonClass } from '../../components/button';
import { StatusBadge } from '../../components/status-badge';
import type { ImportJob } from '../../jobs/import-job';
import { jobStore } from '../../jobs/job-runtime';
import { ConfirmDialog } from './confirm-dialog';
import { type JobCounts, describeJobState, describeSource, formatTime, jobActions, jobCounts, jobLabel } from './job-summary';

type Notice = { tone: 'success' | 'error'; text: string };

const COUNT_COLUMNS: { key: keyof JobCounts; label: string }[] = [
  { key: 'read', label: 'Read' },
  { key: 'sent', label: 'Sent' },
  { key: 'skipped', label: 'Skipped' },
  { key: 'created', label: 'Created' },
  { key: 'updated', label: 'Updated' },
  { key: 'failed', label: 'Failed' },
];

export function JobsTable({ jobs, onNotice }: { jobs: readonly ImportJob[]; onNotice: (notice: Notice) => void }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Import jobs, newest first</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2">Source</th>
            <th scope="col" className="px-3 py-2">State</th>
            {COUNT_COLUMNS.map((column) => (
              <th key={column.key} scope="col" className="px-3 py-2 text-right">{column.label}</th>
            ))}
            <th scope="col" className="px-3 py-2">Started</th>
            <th scope="col" className="px-3 py-2">Finished</th>
            <th scope="col" className="px-3 py-2"><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {jobs.map((job) => (
            <JobRow key={job.id} job={job} onNotice={onNotice} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

type Asking = 'cancel' | 'delete' | null;

function JobRow({ job, onNotice }: { job: ImportJob; onNotice: (notice: Notice) => void }) {
  const [asking, setAsking] = useState<Asking>(null);
  const [busy, setBusy] = useState(false);
  const connection = useConnection();
  const state = describeJobState(job, connection?.baseUrl ?? null);
  const counts = jobCounts(job);
  const { canCancel, canResume } = jobActions(job);
  const label = jobLabel(job);
  const source = describeSource(job.source);

  const run = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await action();
      onNotice({ tone: 'success', text: done });
    } catch (error) {
      onNotice({ tone: 'error', text: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
      setAsking(null);
    }
  };

  const unsent = job.chunks.filter((c) => c.state.status === 'pending' || c.state.status === 'unknown').reduce((sum, c) => sum + c.rowCount, 0);

  return (
    <tr className="align-top">
      <th scope="row" className="px-3 py-2 text-left font-medium text-slate-900">{source}</th>
      <td className={`px-3 py-2 ${state.detail ? 'min-w-56' : ''}`}>
        <StatusBadge tone={state.tone}>{state.word}</StatusBadge>
        {state.detail && <p className="mt-1 text-xs text-slate-600">{state.detail}</p>}
      </td>
      {COUNT_COLUMNS.map((column) => (
        <td key={column.key} className="px-3 py-2 text-right tabular-nums">{counts[column.key].toLocaleString('en')}</td>
      ))}
      <td className="whitespace-nowrap px-3 py-2 text-slate-700">
        <time dateTime={new Date(job.createdAt).toISOString()}>{formatTime(job.createdAt)}</time>
      </td>
      <td className="whitespace-nowrap px-3 py-2 text-slate-700">
        {job.finishedAt === null ? <span className="text-slate-500">not yet</span> : <time dateTime={new Date(job.finishedAt).toISOString()}>{formatTime(job.finishedAt)}</time>}
      </td>
      <td className="min-w-48 px-3 py-2">
        <div className="flex flex-wrap justify-end gap-1.5">
          <Link to="/imports/$jobId" params={{ jobId: job.id }} className={buttonClass('secondary')} aria-label={`Open ${label}`}>Open</Link>
          {canResume && (
            <Button variant="secondary" disabled={busy} aria-label={`Resume ${label}`} onClick={() => void run(() => jobStore.resumeJob(job.id), `Resumed ${label}.`)}>
              Resume
            </Button>
          )}
          {canCancel && (
            <Button variant="secondary" disabled={busy} aria-label={`Cancel ${label}`} onClick={() => setAsking('cancel')}>Cancel</Button>
          )}
          <Button variant="danger" disabled={busy} aria-label={`Delete ${label}`} onClick={() => setAsking('delete')}>Delete</Button>
        </div>
        {asking === 'cancel' && (
          <ConfirmDialog
            title="Cancel this import?"
            confirmLabel="Cancel import"
            cancelLabel="Keep sending"
            busy={busy}
            onClose={() => setAsking(null)}
            onConfirm={() => void run(() => jobStore.cancelJob(job.id), `Cancelled ${label}.`)}
          >
            <p>
              Nothing more of {source} is sent: {unsent.toLocaleString('en')} {unsent === 1 ? 'row that has' : 'rows that have'} not been sent will be skipped.
            </p>
            <p>Batches the service has already accepted still finish, and their results stay here. A request on its way now may still be accepted.</p>
          </ConfirmDialog>
        )}
        {asking === 'delete' && (
          <ConfirmDialog
            title="Delete this job from History?"
            confirmLabel="Delete job"
            busy={busy}
            onClose={() => setAsking(null)}
            onConfirm={() => void run(() => jobStore.deleteJob(job.id), `Deleted ${label} from History.`)}
          >
            <p>
              This deletes only this browser&apos;s record of the job: its progress, its results and the rows kept for download and retry. The shipments already imported stay in the tracking service.
            </p>
            {job.finishedAt === null && job.runState !== 'cancelled' && <p>The job is not finished: deleting it also stops sending and watching it.</p>}
          </ConfirmDialog>
        )}
      </td>
    </tr>
  );
}
