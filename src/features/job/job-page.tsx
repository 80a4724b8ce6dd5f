// The live progress of one import job (/imports/$jobId): what was sent, how far the service has
// got, what it costs the rate limit, what needs the user (unknown chunks, a refused key), and
// the accounting invariant. Reads the job store only, so every tab shows the same thing.
import { memo, useDeferredValue, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Figure } from '../../components/figure';
import { PageHeader } from '../../components/page-header';
import { formatCount as n, plural } from '../../components/plural';
import { ProgressBar } from '../../components/progress-bar';
import { PHASE_TONE } from '../../components/phase-tone';
import { StatusBadge } from '../../components/status-badge';
import { useConnection } from '../../api/use-connection';
import { estimateRemainingMs } from '../../jobs/eta';
import { jobName } from '../../jobs/job-name';
import type { ImportJob } from '../../jobs/import-job';
import { jobEta, jobsHandedHere, jobStore } from '../../jobs/job-runtime';
import { ForesightOutcome } from './foresight-outcome';
import { jobsSentHere, senderSentence } from '../../jobs/job-sender';
import { AccountingPanel, RowProblems } from './job-problems';
import { BatchTable, UnknownChunks } from './job-batches';
import { uploadWaitMs, viewJob, type JobView } from './job-view';
import { RateLimitMeter, useBudget, useTeamPacing } from './rate-limit-meter';
import { useJob, useJobs, useRunner } from './use-jobs';


export function JobPage({ jobId }: { jobId: string }) {
  const { job, status, error } = useJob(jobId);
  if (status === 'loading') return <p className="text-slate-600">Loading the import job…</p>;
  if (status === 'unavailable') return <Alert tone="error" title="Import jobs are not available">{error}</Alert>;
  if (!job) {
    return (
      <Alert tone="warning" title="No such import job">
        This browser has no import job {jobId}. Jobs are kept in the browser that sent them.
      </Alert>
    );
  }
  return <JobProgress job={job} />;
}

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

function JobProgress({ job }: { job: ImportJob }) {
  const now = useNow(1000);
  const connection = useConnection();
  const view = viewJob(job, now, connection?.baseUrl ?? null);
  const budget = useBudget();
  const runner = useRunner();
  const { jobs } = useJobs();
  // The console's server lists the workspace's jobs: only those sent from here are "yours".
  const ownJobIds = useMemo(() => jobsSentHere(jobs, jobsHandedHere()), [jobs]);
  const team = useTeamPacing(ownJobIds, jobs.some((j) => j.finishedAt === null && j.runState === 'running'));
  const eta = useSyncExternalStore(jobEta.subscribe, () => jobEta.get(job.id));
  const uploadsAhead = job.chunks.filter((c) => c.state.status === 'pending' || c.state.status === 'sending').length;
  const remainingMs = job.finishedAt !== null || view.phase === 'cancelled' ? 0 : estimateRemainingMs(eta, view.accounting.toSend + view.accounting.sent - view.accounting.processed, uploadWaitMs(uploadsAhead, budget, now));
  const percent = Math.round(view.fraction * 100);
  useTabTitle(`${percent}% · ${jobName(job)}`);
  const announcement = useMilestones(job, view);
  const wrongService = connection !== null && connection.baseUrl !== job.serviceUrl;
  const onServer = job.runsOn === 'console-server';
  const deferredJob = useDeferredValue(job);
  const deferredView = useDeferredValue(view);
  const deferredNow = useDeferredValue(now);

  return (
    <div className="space-y-6">
      <PageHeader
        title={jobName(job)}
        description={
          <>
            Import job started {new Date(job.createdAt).toLocaleString('en-GB')} · {plural(view.rowsToSend, 'row')} to send in {plural(view.chunksTotal, 'request')}{' '}
            {job.finishedAt !== null && <>· finished {new Date(job.finishedAt).toLocaleString('en-GB')}</>}
            <span className="block">{senderSentence(job)}</span>
          </>
        }
        actions={
          <>
            <StatusBadge tone={PHASE_TONE[view.phase]}>{view.state.word}</StatusBadge>
            {job.runState === 'running' && view.accounting.toSend + view.accounting.unknown > 0 && (
              <Button variant="danger" onClick={() => void jobStore.cancelJob(job.id)}>Cancel sending</Button>
            )}
          </>
        }
      />
      <p className="sr-only" aria-live="polite" aria-atomic="true">{announcement}</p>
      {runner.notice && !onServer && <Alert tone="warning" title="One tab at a time">{runner.notice}</Alert>}
      {runner.unrecorded.filter((u) => u.jobId === job.id).map((u) => (
        <Alert key={u.batchId} tone="error" title="An answer was not saved">{u.sentence}</Alert>
      ))}
      {runner.role === 'watcher' && !onServer && job.finishedAt === null && (
        <Alert tone="info" title="Another tab is sending">Another tab of this console sends and polls; this one shows the same progress. Close that tab and this one takes over.</Alert>
      )}
      {!connection && job.finishedAt === null && (
        <Alert tone="warning" title="Not connected">{onServer ? 'The console’s server goes on sending this job; connect again to watch it.' : 'Connect again to go on sending and polling this job.'}</Alert>
      )}
      {wrongService && job.finishedAt === null && (
        <Alert tone="warning" title="Connected to another service">This job was sent to {job.serviceUrl || 'this console’s own service'}; connect to it again to go on.</Alert>
      )}
      {job.runState === 'paused' && (
        <Alert tone="error" title="Paused" action={<Button variant="secondary" onClick={() => void jobStore.resumeJob(job.id)}>Resume</Button>}>
          {job.pausedReason}
        </Alert>
      )}
      <section aria-labelledby="progress-heading" className="space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="progress-heading" className="text-lg font-semibold text-slate-900">Progress</h2>
        <ProgressBar label={`Rows processed: ${n(view.accounting.processed)} of ${n(view.rowsToSend)}`} value={view.fraction} />
        <ProgressBar label={`Requests accepted: ${n(view.chunksAccepted)} of ${n(view.chunksTotal)}`} value={view.chunksTotal === 0 ? 1 : view.chunksAccepted / view.chunksTotal} />
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          <Figure label="Created" value={n(view.counts.created)} />
          <Figure label="Updated" value={n(view.counts.updated)} />
          <Figure label="Failed" value={n(view.counts.failed)} />
          <Figure label="With warnings" value={n(view.counts.withWarnings)} />
          <Figure label="Tracking failed" value={n(view.counts.trackingFailed)} />
          <Figure label="Time left" value={remainingMs === null ? '—' : remainingMs === 0 ? 'none' : `about ${formatDuration(remainingMs)}`} />
        </dl>
        <div className="grid gap-4 md:grid-cols-2">
          <RateLimitMeter budget={budget} now={now} team={team} />
          <NotifyOption job={job} />
        </div>
      </section>
      <UnknownChunks job={job} />
      <ForesightOutcome job={deferredJob} numbering={deferredJob.numbering} />
      <JobDetails job={deferredJob} view={deferredView} now={deferredNow} />
    </div>
  );
}

/**
 * The accounting, the batches and the row problems: the larger part of the page, rendered from
 * deferred copies of the job, so React renders it in slices it can interrupt. The store's
 * updates come through useSyncExternalStore, which renders at once and in one piece; deferred,
 * a job of many batches and problems keeps each task of an accepted import or a poll under 50 ms.
 */
const JobDetails = memo(function JobDetails({ job, view, now }: { job: ImportJob; view: JobView; now: number }) {
  return (
    <>
      <AccountingPanel job={job} view={view} />
      <BatchTable view={view} now={now} />
      <RowProblems job={job} view={view} numbering={job.numbering} />
    </>
  );
});

function NotifyOption({ job }: { job: ImportJob }) {
  const supported = typeof Notification !== 'undefined';
  const [denied, setDenied] = useState(() => supported && Notification.permission === 'denied');
  const toggle = async (on: boolean) => {
    if (on && supported && Notification.permission !== 'granted') {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        setDenied(true);
        return;
      }
    }
    await jobStore.setNotify(job.id, on);
  };
  if (job.finishedAt !== null) return null;
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm">
      <label className="flex items-center gap-2 font-medium text-slate-900">
        <input type="checkbox" checked={job.notify} disabled={!supported || denied} onChange={(e) => void toggle(e.target.checked)} />
        Notify me when it finishes while this tab is hidden
      </label>
      {!supported && <p className="mt-1 text-slate-600">This browser has no notifications.</p>}
      {denied && <p className="mt-1 text-slate-600">Notifications are blocked for this site in the browser’s settings.</p>}
    </div>
  );
}

function useTabTitle(title: string) {
  useEffect(() => {
    const before = document.title;
    document.title = `${title} — Shipment Import Console`;
    return () => {
      document.title = before;
    };
  }, [title]);
}

/** A sentence for the polite live region when the job reaches a milestone (not every tick). */
function useMilestones(job: ImportJob, view: JobView): string {
  const quarter = Math.floor(view.fraction * 4);
  const sentAll = view.accounting.toSend === 0;
  let text = '';
  if (job.finishedAt !== null && view.phase !== 'cancelled') {
    text = `Import finished: ${n(view.counts.created)} created, ${n(view.counts.updated)} updated, ${n(view.counts.failed)} failed.`;
  } else if (view.phase === 'needs-you') text = `${n(view.accounting.unknown)} rows need your decision: their answer was lost.`;
  else if (view.phase === 'paused') text = `Sending paused. ${job.pausedReason ?? ''}`;
  else if (quarter > 0) text = `${quarter * 25}% of rows processed.`;
  else if (sentAll) text = 'Every request was accepted; the service is processing the rows.';
  return text;
}
