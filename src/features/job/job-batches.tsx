import { Link, useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../components/button';
import { ProgressBar } from '../../components/progress-bar';
import { StatusBadge } from '../../components/status-badge';
import type { ImportJob, JobChunk } from '../../jobs/import-job';
import { jobStore } from '../../jobs/job-runtime';
import { sendsIdempotencyKey } from '../../jobs/runner/submit-queue';
import type { JobView } from './job-view';
import { formatCount as n } from '../../components/plural';

const time = (ms: number | null) => (ms === null ? '—' : new Date(ms).toLocaleTimeString('en-GB'));

/** Chunks whose answer was lost: they may have been imported. The user resends or skips each. */
export function UnknownChunks({ job }: { job: ImportJob }) {
  // Each loss the person has answered (chunk and when its answer was lost): its buttons stay
  // inert until the page shows the chunk moved on, so a second click — or a page still a poll
  // behind the console's server — is never a second decision. aria-disabled keeps keyboard focus.
  const [answered, setAnswered] = useState<ReadonlySet<string>>(new Set());
  const [refused, setRefused] = useState<string | null>(null);
  const unknown = job.chunks.filter((c) => c.state.status === 'unknown');
  if (unknown.length === 0) return null;
  const lossOf = (chunk: JobChunk) => `${chunk.id}@${chunk.state.status === 'unknown' ? chunk.state.at : ''}`;

  const answer = async (chunk: JobChunk, choice: 'resend' | 'skip') => {
    const loss = lossOf(chunk);
    if (answered.has(loss)) return;
    setAnswered((losses) => new Set(losses).add(loss));
    setRefused(null);
    const again = () =>
      setAnswered((losses) => {
        const next = new Set(losses);
        next.delete(loss);
        return next;
      });
    try {
      const applied = await (choice === 'resend' ? jobStore.resendChunk(job.id, chunk.id) : jobStore.skipChunk(job.id, chunk.id));
      if (applied.refused !== null) setRefused(applied.refused);
    } catch (error) {
      // Not applied (the console's server unreachable, say): the person may answer again.
      again();
      setRefused(`Your answer for rows ${chunk.firstRow}–${chunk.lastRow} did not reach the job: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  return (
    <section aria-labelledby="unknown-heading" className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-5">
      <h2 id="unknown-heading" className="text-lg font-semibold text-amber-950">Requests whose answer was lost</h2>
      <p className="text-sm text-amber-950">
        {sendsIdempotencyKey(job.serviceUrl, globalThis.location?.origin)
          ? 'The service may or may not have imported these rows. Resending is safe here: each request carries its own key, so if the first one did arrive the service answers with that batch instead of importing the rows again.'
          : 'The service may or may not have imported these rows. Rows with a reference are updated, not duplicated, if you send them again; rows without a reference would be created a second time if the first request did arrive.'}
      </p>
      {refused && (
        <p role="alert" className="text-sm font-medium text-red-800">
          {refused}
        </p>
      )}
      <ul className="space-y-2">
        {unknown.map((chunk) => {
          const busy = answered.has(lossOf(chunk));
          return (
            <li key={chunk.id} className="flex flex-wrap items-center justify-between gap-3 rounded-md bg-white p-3 text-sm shadow-sm">
              <div>
                <p className="font-medium text-slate-900">
                  Rows {chunk.firstRow}–{chunk.lastRow} ({n(chunk.rowCount)} rows, {n(chunk.withoutReference)} without a reference)
                </p>
                <p className="text-slate-600">{chunk.state.status === 'unknown' ? chunk.state.error : ''}</p>
              </div>
              <div className="flex gap-2">
                <Button variant="secondary" aria-disabled={busy} className={busy ? 'cursor-wait opacity-50' : ''} onClick={() => void answer(chunk, 'resend')} aria-label={`Resend rows ${chunk.firstRow}–${chunk.lastRow}`}>
                  Resend
                </Button>
                <Button variant="ghost" aria-disabled={busy} className={busy ? 'cursor-wait opacity-50' : ''} onClick={() => void answer(chunk, 'skip')} aria-label={`Skip rows ${chunk.firstRow}–${chunk.lastRow}`}>
                  Skip
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function BatchTable({ view, now }: { view: JobView; now: number }) {
  const router = useRouter();
  // What the last Copy link did, said politely; a refusal gives the link to copy by hand.
  const [copied, setCopied] = useState<{ ok: boolean; url: string } | null>(null);
  if (view.batches.length === 0) return null;

  const copyLink = async (batchId: string) => {
    // Absolute, so it opens in another browser: the batch page reads the batch from the service.
    const url = new URL(router.buildLocation({ to: '/batches/$batchId', params: { batchId } }).href, window.location.href).href;
    // Emptied first, so a second copy is announced again.
    setCopied(null);
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(url);
      setCopied({ ok: true, url });
    } catch {
      setCopied({ ok: false, url });
    }
  };

  return (
    <section aria-labelledby="batches-heading" className="space-y-3">
      <h2 id="batches-heading" className="text-lg font-semibold text-slate-900">Batches</h2>
      <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="px-4 py-2">Batch</th>
              <th scope="col" className="px-4 py-2">Share</th>
              <th scope="col" className="px-4 py-2">Status</th>
              <th scope="col" className="w-1/3 px-4 py-2">Progress</th>
              <th scope="col" className="px-4 py-2">Accepted</th>
              <th scope="col" className="px-4 py-2">Last poll</th>
              <th scope="col" className="px-4 py-2">Last change</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {view.batches.map((batch) => (
              <tr key={batch.batchId}>
                {/* The cell holds the id alone (as a link): people and tests read the id from it. */}
                <td className="px-4 py-2 font-mono text-xs whitespace-nowrap">
                  <Link to="/batches/$batchId" params={{ batchId: batch.batchId }} className="text-brand-700 underline">
                    {batch.batchId}
                  </Link>
                </td>
                <td className="px-4 py-2">
                  <Button variant="secondary" className="whitespace-nowrap px-2.5 py-1 text-xs" aria-label={`Copy link to batch ${batch.batchId}`} onClick={() => void copyLink(batch.batchId)}>
                    Copy link
                  </Button>
                </td>
                <td className="px-4 py-2">
                  {batch.stalled ? (
                    <StatusBadge tone="warning">Stalled for {Math.round((now - batch.lastMovedAt) / 60_000)} min</StatusBadge>
                  ) : batch.status === 'completed' ? (
                    <StatusBadge tone="success">Completed</StatusBadge>
                  ) : batch.status === 'failed' ? (
                    <StatusBadge tone="danger">Failed</StatusBadge>
                  ) : (
                    <StatusBadge tone="progress">Processing</StatusBadge>
                  )}
                  {batch.failureReason && <p className="mt-1 text-xs text-red-800">{batch.failureReason}</p>}
                </td>
                <td className="px-4 py-2">
                  <ProgressBar label={`${n(batch.completed)} of ${n(batch.total)} rows`} value={batch.total === 0 ? 1 : batch.completed / batch.total} />
                </td>
                <td className="px-4 py-2">{time(batch.acceptedAt)}</td>
                <td className="px-4 py-2">{time(batch.lastPolledAt)}</td>
                <td className="px-4 py-2">{time(batch.lastMovedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p aria-live="polite" className={`text-sm ${copied?.ok === false ? 'text-red-700' : 'text-emerald-800'}`}>
        {copied && (copied.ok ? 'Link copied.' : <>The browser did not allow copying. Copy the link by hand: <span className="break-all font-mono">{copied.url}</span></>)}
      </p>
    </section>
  );
}
