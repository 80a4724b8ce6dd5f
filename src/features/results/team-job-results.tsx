// The results of a job another browser sent, on its job page (DESIGN §1 journey 12): the team
// history names the job's batches; each is read from the service and shown in the shared results
// grid with its downloads and fix & retry, one batch at a time (a job of 20 batches would
// otherwise poll and hold 20 grids).
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ApiTarget } from '../../api/http-client';
import { teamJobQuery } from '../../api/team-history';
import { formatCount as n } from '../../components/plural';
import { BatchResults } from './batch-results';
import type { ResultsThread } from '../../jobs/thread/results-reader';
import type { RetryHandoff } from './retry';

export function TeamJobResults({ jobId, target, thread, onFixAndRetry }: { jobId: string; target: ApiTarget; thread: ResultsThread; onFixAndRetry: (handoff: RetryHandoff) => void }) {
  const job = useQuery(teamJobQuery(target, jobId));
  const batches = (job.data?.chunks ?? []).flatMap((chunk) => (chunk.batchId === null ? [] : [{ ...chunk, batchId: chunk.batchId }]));
  const [chosen, setChosen] = useState<string | null>(null);
  const pickerId = useId();
  if (!job.data) return null;
  const numbering = job.data.numbering;
  const shown = batches.find((batch) => batch.batchId === chosen) ?? batches[0];
  return (
    <section aria-labelledby="team-results-heading" className="space-y-4">
      <h2 id="team-results-heading" className="text-lg font-semibold text-slate-900">Results</h2>
      {!shown ? (
        <p role="status" className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">
          No request of this job has been accepted yet: each batch&apos;s rows appear here once the service has taken them.
        </p>
      ) : (
        <>
          {batches.length > 1 && (
            <div className="max-w-xl">
              <label htmlFor={pickerId} className="block text-sm font-medium text-slate-800">
                Batch
              </label>
              <select id={pickerId} value={shown.batchId} onChange={(event) => setChosen(event.target.value)} className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm">
                {batches.map((batch) => (
                  <option key={batch.batchId} value={batch.batchId}>
                    {numbering}s {batch.firstRow}–{batch.lastRow} ({n(batch.rowCount)}) · {batch.batchId}
                  </option>
                ))}
              </select>
            </div>
          )}
          <BatchResults key={shown.batchId} batchId={shown.batchId} target={target} thread={thread} onFixAndRetry={onFixAndRetry} within />
        </>
      )}
    </section>
  );
}
