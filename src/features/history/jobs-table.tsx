import { Link } from '@tanstack/react-router';
import { useConnection } from '../../api/use-connection';
import { useEffect, useId, useState } from 'react';
import { Button, buttonClass } from '../../components/button';
import { StatusBadge } from '../../components/status-badge';
import type { ImportJob } from '../../jobs/import-job';
import { jobStore } from '../../jobs/job-runtime';
import { sentFromLabel } from '../../jobs/job-sender';
import { ConfirmDialog } from './confirm-dialog';
import { type JobCounts, describeJobState, describeSource, formatTimeParts, jobActions, jobCounts, jobLabel } from './job-summary';
import { formatCount } from '../../components/plural';

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
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const scrolls = useScrollsSideways(scroller);
  const captionId = useId();
  // The table fits a 1366 px screen. Narrower (a small window, 200% zoom) its middle columns
  // scroll inside this region, which then takes the focus so arrow keys scroll it; the actions
  // column stays pinned on the right, so every job's actions are always in view.
  // `relative` holds the absolutely placed sr-only header text inside the region: without it
  // that text hangs past the page's right edge and the whole page scrolls sideways.
  return (
    <div
      ref={setScroller}
      role="region"
      aria-labelledby={captionId}
      tabIndex={scrolls ? 0 : undefined}
      className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
    >
      <table className="w-full divide-y divide-slate-200 text-sm">
        <caption id={captionId} className="sr-only">Import jobs, newest first</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2">Source</th>
            <th scope="col" className="px-3 py-2">State</th>
            {COUNT_COLUMNS.map((column) => (
              <th key={column.key} scope="col" className="px-2 py-2 text-right">{column.label}</th>
            ))}
            <th scope="col" className="px-3 py-2">Started</th>
            <th scope="col" className="px-3 py-2">Finished</th>
            <th scope="col" className="px-3 py-2">Sent from</th>
            <th scope="col" className={`${ACTIONS_CELL} bg-slate-50`}><span className="sr-only">Actions</span></th>
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

/**
 * The actions column, pinned to the right edge of the scrolling region (it never scrolls out of
 * view), wide enough for its buttons two by two. Its rule on the left is a shadow, not a border:
 * the table's collapsed borders stay behind when a sticky cell moves.
 */
const ACTIONS_CELL = 'sticky right-0 min-w-48 px-3 py-2 shadow-[inset_1px_0_0_var(--color-slate-200)]';

/** Whether the element's content is wider than the element: it scrolls sideways. */
function useScrollsSideways(element: HTMLElement | null): boolean {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth);
    measure();
    // jsdom (component tests) has no ResizeObserver; the first measure is all it gets.
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    // The table grows with its rows and their words without the region changing size.
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [element]);
  return scrolls;
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
      {/* A long file name breaks anywhere rather than widen the table. */}
      <th scope="row" className="min-w-36 px-3 py-2 text-left font-medium [overflow-wrap:anywhere] text-slate-900">{source}</th>
      <td className={`px-3 py-2 ${state.detail ? 'min-w-48' : ''}`}>
        <StatusBadge tone={state.tone}>{state.word}</StatusBadge>
        {state.detail && <p className="mt-1 text-xs text-slate-600">{state.detail}</p>}
      </td>
      {COUNT_COLUMNS.map((column) => (
        <td key={column.key} className="px-2 py-2 text-right tabular-nums">{formatCount(counts[column.key])}</td>
      ))}
      <td className="px-3 py-2 text-slate-700">
        <JobTime epochMs={job.createdAt} />
      </td>
      <td className="px-3 py-2 text-slate-700">
        {job.finishedAt === null ? <span className="whitespace-nowrap text-slate-500">not yet</span> : <JobTime epochMs={job.finishedAt} />}
      </td>
      <td className="px-3 py-2 text-slate-700">{sentFromLabel(job.runsOn, 'mine')}</td>
      <td className={`${ACTIONS_CELL} bg-white`}>
        <div className="grid grid-cols-2 gap-1.5">
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
              Nothing more of {source} is sent: {formatCount(unsent)} {unsent === 1 ? 'row that has' : 'rows that have'} not been sent will be skipped.
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
              {job.runsOn === 'console-server'
                ? 'This deletes the console’s server’s record of the job, for every browser of your workspace'
                : "This deletes only this browser's record of the job"}
              : its progress, its results and the rows kept for download and retry. The shipments already imported stay in the tracking service.
            </p>
            {job.finishedAt === null && job.runState !== 'cancelled' && <p>The job is not finished: deleting it also stops sending and watching it.</p>}
          </ConfirmDialog>
        )}
      </td>
    </tr>
  );
}

/** A job's time, which may wrap between the date and the hour but never inside either. */
function JobTime({ epochMs }: { epochMs: number }) {
  const { date, time } = formatTimeParts(epochMs);
  return (
    <time dateTime={new Date(epochMs).toISOString()}>
      <span className="whitespace-nowrap">{date},</span> <span className="whitespace-nowrap">{time}</span>
    </time>
  );
}
