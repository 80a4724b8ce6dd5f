import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { consoleInfoQueryOptions } from '../../api/connect';
import { Alert } from '../../components/alert';
import { buttonClass } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { ListIcon } from '../../components/icons';
import { PageHeader } from '../../components/page-header';
import { useObservable } from '../../api/use-observable';
import type { ImportJob } from '../../jobs/import-job';
import { jobStore } from '../../jobs/job-runtime';
import { JobsTable } from './jobs-table';
import { OpenBatch } from './open-batch';
import { TeamJobs } from './team-jobs';
import { ServerJobsNeedConnection, WaitingForConnection } from './waiting-for-connection';

export type HistoryView = 'browser' | 'team';

/**
 * Import jobs, newest first: this browser's (IndexedDB), or the team's, kept by this console's
 * server for the workspace.
 */
export function HistoryPage({ view = 'browser' }: { view?: HistoryView }) {
  const serverRunsJobs = useQuery(consoleInfoQueryOptions).data?.runs_jobs === true;
  return (
    <div>
      <PageHeader
        title="History"
        description={
          view === 'team'
            ? 'Every import job anyone of your workspace sent through this console, newest first: open one to see its batches, its failed rows and why.'
            : serverRunsJobs
              ? 'Every import job this browser started, and those the console’s server sends for your workspace: a dropped file, a quick-add list or a retry. The console’s server’s jobs go on with every tab closed; finished ones keep their results.'
              : 'Every import job this browser started: a dropped file, a quick-add list or a retry. Running jobs keep sending and polling on every page of the console; finished ones keep their results.'
        }
        actions={
          <>
            <Link to="/quick-add" className={buttonClass('secondary')}>Quick add</Link>
            <Link to="/" className={buttonClass()}>Import a file</Link>
          </>
        }
      />
      <OpenBatch />
      <nav aria-label="Whose import jobs" className="mb-6 flex gap-1 border-b border-slate-200">
        <ViewLink view="browser" current={view}>This browser</ViewLink>
        <ViewLink view="team" current={view}>Team</ViewLink>
      </nav>
      {view === 'team' ? <TeamJobs /> : <BrowserJobs />}
    </div>
  );
}

function ViewLink({ view, current, children }: { view: HistoryView; current: HistoryView; children: string }) {
  const selected = view === current;
  return (
    <Link
      to="/history"
      search={view === 'team' ? { view } : {}}
      aria-current={selected ? 'page' : undefined}
      className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium ${selected ? 'border-brand-700 text-brand-800' : 'border-transparent text-slate-700 hover:text-slate-900'}`}
    >
      {children}
    </Link>
  );
}

function BrowserJobs() {
  const snapshot = useObservable(jobStore);
  return (
    <div>
      {snapshot.status === 'loading' && (
        <p role="status" className="text-sm text-slate-600">Loading import jobs…</p>
      )}
      {snapshot.status === 'unavailable' && (
        <Alert tone="error" title="History is not available in this browser">
          <p>{snapshot.error}</p>
          <p className="mt-1">
            Jobs are kept in this browser&apos;s IndexedDB, which is turned off or full (a private window often has none). Imports cannot be tracked here until it is available.
          </p>
        </Alert>
      )}
      {snapshot.status === 'ready' && (
        <div className="space-y-4">
          <ServerJobsNeedConnection />
          {snapshot.jobs.length === 0 ? <NoJobs /> : <JobsList jobs={snapshot.jobs} />}
        </div>
      )}
    </div>
  );
}

function NoJobs() {
  return (
    <EmptyState
      icon={<ListIcon />}
      title="No import jobs yet"
      action={
        <div className="flex flex-wrap justify-center gap-2">
          <Link to="/" className={buttonClass()}>Import a file</Link>
          <Link to="/quick-add" className={buttonClass('secondary')}>Quick add shipments</Link>
        </div>
      }
    >
      Import a CSV or Excel file, or type a few shipments in Quick add: each import becomes a job here, with its progress and results.
    </EmptyState>
  );
}

function JobsList({ jobs }: { jobs: readonly ImportJob[] }) {
  // What the last action did, said politely; an action that failed is said as an error.
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  return (
    <div className="space-y-4">
      <div aria-live="polite" className="empty:hidden">
        {notice?.tone === 'success' && <p className="text-sm text-emerald-800">{notice.text}</p>}
      </div>
      {notice?.tone === 'error' && <Alert tone="error" title="That did not work">{notice.text}</Alert>}
      <WaitingForConnection jobs={jobs} />
      <JobsTable jobs={jobs} onNotice={setNotice} />
    </div>
  );
}
