// The job page's "as foreseen?": which rows did not do what the Ready step foresaw — foreseen to
// create and the service updated an existing shipment (its reference was known elsewhere), or the
// reverse — read from the foresight the job kept with its rows as sent and the finished batches'
// outcomes, compared by jobs/foresight-check.ts.
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '../../components/button';
import type { ImportJob } from '../../jobs/import-job';
import { describeRowsNotAsForeseen, type ForeseenChunk, rowsNotAsForeseen } from '../../jobs/foresight-check';
import { jobStore } from '../../jobs/job-runtime';
import type { RowNumbering } from '../../spreadsheet/row-numbering';

/** Rows listed at most; the sentence counts them all. */
const LISTED = 500;

/** Lets the page's thread go between two batches' outcomes: each is read and compared in its own task. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The foresight kept with each accepted chunk's rows and its batch's items, one batch at a time
 * so that no one read holds the page for a whole job's outcomes; null when the job kept no foresight.
 */
async function readForeseen(jobId: string, accepted: readonly (readonly [number, string])[]): Promise<{ chunks: ForeseenChunk[]; compared: number } | null> {
  const chunks: ForeseenChunk[] = [];
  let compared = 0;
  for (const [chunkId, batchId] of accepted) {
    const payload = await jobStore.getPayload(jobId, chunkId);
    if (payload?.foreseen === undefined) continue;
    const outcome = await jobStore.getOutcome(jobId, batchId);
    if (!outcome) continue;
    chunks.push({ foreseen: payload.foreseen, items: outcome.items });
    compared += outcome.items.filter((item) => item !== null && item.creationStatus.toLowerCase() !== 'failed').length;
    await nextTask();
  }
  return chunks.length === 0 ? null : { chunks, compared };
}

export function ForesightOutcome({ job, numbering }: { job: ImportJob; numbering: RowNumbering }) {
  // Read once the job has finished: every batch's outcome is saved by then.
  const jobId = job.id;
  const finishedAt = job.finishedAt;
  const accepted = job.chunks.flatMap((chunk) => (chunk.state.status === 'accepted' ? [[chunk.id, chunk.state.batchId] as const] : []));
  const { data } = useQuery({
    queryKey: ['foresight-outcome', jobId, finishedAt, accepted],
    queryFn: async () => {
      const read = await readForeseen(jobId, accepted);
      return read && { rows: rowsNotAsForeseen(read.chunks), compared: read.compared };
    },
    enabled: finishedAt !== null,
    staleTime: Infinity,
  });
  const [open, setOpen] = useState(false);
  const listId = useId();
  if (!data) return null;
  const { rows, compared } = data;
  return (
    <section aria-labelledby="foresight-outcome-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="foresight-outcome-heading" className="text-lg font-semibold text-slate-900">As foreseen?</h2>
      <p className="text-sm text-slate-800">
        {describeRowsNotAsForeseen(rows, compared)}
        {rows.length > 0 && ' The Ready step knew only the references this console had seen; Check against the service reads the rest.'}
      </p>
      {rows.length > 0 && (
        <>
          <Button variant="secondary" aria-expanded={open} aria-controls={listId} onClick={() => setOpen(!open)}>
            {`${open ? 'Hide' : 'Show'} ${rows.length === 1 ? 'this row' : 'these rows'}`}
          </Button>
          {open && (
            <div id={listId} role="region" aria-label="Rows not as foreseen" tabIndex={0} className="max-h-80 overflow-auto rounded-lg border border-slate-200">
              <table className="min-w-full divide-y divide-slate-200 text-sm">
                <thead className="sticky top-0 bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
                  <tr>
                    <th scope="col" className="px-4 py-2">{numbering}</th>
                    <th scope="col" className="px-4 py-2">Reference</th>
                    <th scope="col" className="px-4 py-2">Foreseen</th>
                    <th scope="col" className="px-4 py-2">The service</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {rows.slice(0, LISTED).map((row) => (
                    <tr key={row.rowNumber}>
                      <td className="px-4 py-2 font-mono">{row.rowNumber}</td>
                      <td className="px-4 py-2 font-mono">{row.reference ?? '—'}</td>
                      <td className="px-4 py-2">{row.foreseen === 'create' ? 'create a shipment' : 'update an existing shipment'}</td>
                      <td className="px-4 py-2">{row.outcome === 'updated' ? 'updated an existing shipment' : 'created a shipment'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {rows.length > LISTED && <p className="text-sm text-slate-600">Showing the first {LISTED} of {rows.length.toLocaleString('en')}.</p>}
        </>
      )}
    </section>
  );
}
