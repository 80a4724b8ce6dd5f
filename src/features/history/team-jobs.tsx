// History's Team view: every import job sent through this console server by anyone of the
// workspace, newest first, from the team history (src/server/console/). Searching by a file name,
// a batch id or a reference finds the job a colleague asks about.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { sentFromLabel } from '../../jobs/job-sender';
import { useDeferredValue, useId, useState } from 'react';
import { hasTeamHistory, teamJobsQuery } from '../../api/team-history';
import { useConnection } from '../../api/use-connection';
import { Alert } from '../../components/alert';
import { ErrorPanel } from '../../components/error-panel';
import { buttonClass } from '../../components/button';
import { formatCount } from '../../components/plural';
import type { TeamJobLine } from '../../contract/team-history';
import { formatBytes, formatTimeParts } from './job-summary';

export function TeamJobs() {
  const connection = useConnection();
  if (!connection) {
    return (
      <Alert tone="info" title="Connect to see your team's imports">
        <p>The team history is kept by this console&apos;s server for each workspace: connect with your workspace&apos;s API key, or use the local sandbox.</p>
        <Link to="/connect" className={`${buttonClass('secondary')} mt-3`}>Connect</Link>
      </Alert>
    );
  }
  if (!hasTeamHistory(connection)) {
    return (
      <Alert tone="info" title="No team history on this connection">
        This browser is connected straight to {connection.label}, not through this console&apos;s server, so no team history is kept. Imports sent this way are listed under This browser.
      </Alert>
    );
  }
  return <TeamJobList target={{ baseUrl: connection.baseUrl, apiKey: connection.apiKey }} />;
}

function TeamJobList({ target }: { target: { baseUrl: string; apiKey: string } }) {
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search.trim());
  const jobs = useQuery(teamJobsQuery(target, deferred));
  const searchId = useId();
  return (
    <div className="space-y-4">
      <div className="max-w-xl">
        <label htmlFor={searchId} className="block text-sm font-medium text-slate-800">
          Search
        </label>
        <input
          id={searchId}
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder="File name, batch id or reference"
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
        />
      </div>
      {jobs.isPending && (
        <p role="status" className="text-sm text-slate-600">
          Loading the team&apos;s import jobs…
        </p>
      )}
      {jobs.isError && <ErrorPanel title="The team history could not be read" error={jobs.error} onRetry={() => void jobs.refetch()} />}
      {jobs.data && (jobs.data.data.length === 0 ? <NoTeamJobs search={deferred} /> : <TeamTable jobs={jobs.data.data} />)}
      {jobs.data?.more && (
        <p className="text-sm text-slate-600">Showing the newest 200 import jobs: search to find an older one.</p>
      )}
    </div>
  );
}

function NoTeamJobs({ search }: { search: string }) {
  return (
    <p role="status" className="rounded-lg border border-slate-200 bg-white p-5 text-sm text-slate-700">
      {search === '' ? 'Nobody has sent an import through this console yet.' : <>No import job matches “{search}”. A batch id or a reference must be written in full.</>}
    </p>
  );
}

function TeamTable({ jobs }: { jobs: readonly TeamJobLine[] }) {
  const captionId = useId();
  return (
    <div role="region" aria-labelledby={captionId} tabIndex={0} className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700">
      <table className="w-full divide-y divide-slate-200 text-sm">
        <caption id={captionId} className="sr-only">
          The team&apos;s import jobs, newest first
        </caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2">Source</th>
            <th scope="col" className="px-3 py-2">Sent by</th>
            <th scope="col" className="px-3 py-2">Sent from</th>
            <th scope="col" className="px-3 py-2">State</th>
            <th scope="col" className="px-2 py-2 text-right">Read</th>
            <th scope="col" className="px-2 py-2 text-right">Created</th>
            <th scope="col" className="px-2 py-2 text-right">Updated</th>
            <th scope="col" className="px-2 py-2 text-right">Failed</th>
            <th scope="col" className="px-2 py-2 text-right">Skipped</th>
            <th scope="col" className="px-3 py-2">Started</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {jobs.map((job) => (
            <TeamRow key={job.id} job={job} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TeamRow({ job }: { job: TeamJobLine }) {
  const started = formatTimeParts(job.createdAt);
  const count = (value: number) => <td className="px-2 py-2 text-right tabular-nums">{formatCount(value)}</td>;
  return (
    <tr>
      <td className="px-3 py-2">
        <Link to="/imports/$jobId" params={{ jobId: job.id }} className="font-medium text-brand-700 underline">
          {job.source.name}
        </Link>
        <span className="block text-xs text-slate-600">
          {job.source.size === null ? null : `${formatBytes(job.source.size)} · `}
          {job.batchIds.length === 1 ? '1 batch' : `${formatCount(job.batchIds.length)} batches`}
        </span>
      </td>
      <td className="px-3 py-2">{job.sentBy ?? <span className="text-slate-600">Not named</span>}</td>
      <td className="px-3 py-2">{sentFromLabel(job.runsOn, 'team')}</td>
      <td className="px-3 py-2">{job.state}</td>
      {count(job.rowsRead)}
      {count(job.counts.created)}
      {count(job.counts.updated)}
      {count(job.counts.failed)}
      {count(job.rowsSkipped)}
      <td className="px-3 py-2 whitespace-nowrap">
        {started.date} <span className="text-slate-600">{started.time}</span>
      </td>
    </tr>
  );
}
