// A job link opened in a browser that did not send the job (DESIGN §1 journey 12): the job as the
// team history keeps it, read-only — who sent it and when, its state, counts, requests with their
// batch ids (each opens at /batches/<id>), and the rows skipped before sending with why. The
// sender's browser keeps the history current; this one only reads it.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ApiTarget } from '../../api/http-client';
import { teamJobQuery } from '../../api/team-history';
import { Alert } from '../../components/alert';
import { ErrorPanel } from '../../components/error-panel';
import { Figure } from '../../components/figure';
import { PageHeader } from '../../components/page-header';
import { formatCount as n, plural } from '../../components/plural';
import { StatusBadge, type StatusTone } from '../../components/status-badge';
import type { TeamChunk, TeamJob } from '../../contract/team-history';

const SKIPPED_SHOWN = 200;

const CHUNK_WORDS: Record<TeamChunk['status'], { text: string; tone: StatusTone }> = {
  pending: { text: 'Waiting to be sent', tone: 'neutral' },
  sending: { text: 'Sending', tone: 'progress' },
  accepted: { text: 'Accepted', tone: 'success' },
  rejected: { text: 'Refused', tone: 'danger' },
  unknown: { text: 'Answer lost', tone: 'warning' },
  skipped: { text: 'Skipped', tone: 'neutral' },
};

export function TeamJobPage({ jobId, target }: { jobId: string; target: ApiTarget }) {
  const query = useQuery(teamJobQuery(target, jobId));
  if (query.isPending) return <p role="status" className="text-slate-600">Loading the import job…</p>;
  if (query.isError) return <ErrorPanel title="The import job could not be read" error={query.error} onRetry={() => void query.refetch()} />;
  if (query.data === null) {
    return (
      <Alert tone="warning" title="No such import job">
        Neither this browser nor your workspace&apos;s team history has an import job {jobId}. Check the link, or search for the file, a batch id or a reference under History, Team.
      </Alert>
    );
  }
  return <TeamJobView job={query.data} />;
}

function TeamJobView({ job }: { job: TeamJob }) {
  const sent = new Date(job.createdAt);
  const when = `${sent.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' })}, ${sent.toLocaleTimeString('en-GB', { timeStyle: 'short' })}`;
  const rowsSent = job.chunks.filter((chunk) => chunk.status === 'accepted').reduce((sum, chunk) => sum + chunk.rowCount, 0);
  return (
    <div className="space-y-6">
      <PageHeader
        title={job.source.name}
        description={
          <>
            {job.runsOn === 'console-server' ? 'Sent by the console’s server for' : 'Sent from another browser by'} {job.sentBy ?? 'someone who gave no name'} on {when}; this browser
            watches it. {plural(job.rowsRead, 'row')} read
            {job.source.kind === 'retry' && job.source.retryOf && <> · a retry of {job.source.retryOf}</>}
          </>
        }
        actions={<StatusBadge tone={stateTone(job)}>{job.state.split(':')[0] ?? job.state}</StatusBadge>}
      />
      {job.state.includes(':') && <p className="text-sm text-slate-700">{job.state}</p>}
      <section aria-labelledby="team-progress-heading" className="space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="team-progress-heading" className="text-lg font-semibold text-slate-900">
          Progress, as the sender&apos;s browser last reported it
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          <Figure label="Rows sent" value={n(rowsSent)} />
          <Figure label="Created" value={n(job.counts.created)} />
          <Figure label="Updated" value={n(job.counts.updated)} />
          <Figure label="Failed" value={n(job.counts.failed)} />
          <Figure label="With warnings" value={n(job.counts.withWarnings)} />
          <Figure label="Tracking failed" value={n(job.counts.trackingFailed)} />
        </dl>
        <p className="text-sm text-slate-600">Last report {new Date(job.updatedAt).toLocaleTimeString('en-GB')}. Every row&apos;s result, with downloads of the failed rows and fix &amp; retry, is under Results below, one batch at a time; a batch also opens on a page of its own.</p>
      </section>
      <TeamChunks job={job} />
      <TeamSkipped job={job} />
    </div>
  );
}

/** The badge's colour beside the state's words: finished cleanly, finished with something to look at, or still going. */
function stateTone(job: TeamJob): StatusTone {
  if (!job.finished) return 'progress';
  return job.state === 'Finished' ? 'success' : 'danger';
}

function TeamChunks({ job }: { job: TeamJob }) {
  if (job.chunks.length === 0) return null;
  return (
    <section aria-labelledby="team-requests-heading" className="space-y-3">
      <h2 id="team-requests-heading" className="text-lg font-semibold text-slate-900">Requests and batches</h2>
      <div role="region" aria-labelledby="team-requests-heading" tabIndex={0} className="relative max-h-96 overflow-auto rounded-lg border border-slate-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-brand-700">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <thead className="sticky top-0 bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="px-4 py-2">{job.numbering}s</th>
              <th scope="col" className="px-4 py-2">Request</th>
              <th scope="col" className="px-4 py-2">Batch</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {job.chunks.map((chunk) => {
              const words = CHUNK_WORDS[chunk.status];
              return (
                <tr key={chunk.id}>
                  <td className="px-4 py-2 whitespace-nowrap">
                    {chunk.firstRow}–{chunk.lastRow} ({n(chunk.rowCount)})
                  </td>
                  <td className="px-4 py-2">
                    <StatusBadge tone={words.tone}>{words.text}</StatusBadge>
                    {chunk.note && <p className="mt-1 text-xs text-slate-700">{chunk.note}</p>}
                  </td>
                  <td className="px-4 py-2 font-mono text-xs">
                    {chunk.batchId ? (
                      <Link to="/batches/$batchId" params={{ batchId: chunk.batchId }} className="text-brand-700 underline">
                        {chunk.batchId}
                      </Link>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function TeamSkipped({ job }: { job: TeamJob }) {
  if (job.skipped.length === 0) return null;
  return (
    <section aria-labelledby="team-skipped-heading" className="space-y-3">
      <h2 id="team-skipped-heading" className="text-lg font-semibold text-slate-900">Rows skipped before sending</h2>
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-800">
        {job.skipped.slice(0, SKIPPED_SHOWN).map((row) => (
          <li key={row.rowNumber}>
            {job.numbering} {row.rowNumber}: {row.reason}
          </li>
        ))}
      </ul>
      {job.skipped.length > SKIPPED_SHOWN && <p className="text-sm text-slate-600">Showing the first {n(SKIPPED_SHOWN)} of {n(job.skipped.length)}.</p>}
    </section>
  );
}
