import { startTransition, useEffect, useState, type ReactNode } from 'react';
import { Button } from '../../components/button';
import { formatCount as n, plural } from '../../components/plural';
import type { PreparedSubmission, RowNumbering } from '../../workers/import-protocol';

/** Skipped rows put in the list with the step (eight are in sight), the step's first frame being its heaviest. */
const SKIPPED_FIRST = 20;
/** Skipped rows added in each later frame, until all are in. */
const SKIPPED_PER_FRAME = 50;

/**
 * What will be sent, before anything is: rows, chunks, the exact CSV headers and the first
 * lines, and every skipped row with its reason; `send` is the cost and the Send button.
 */
export function ReadySummary({
  submission,
  numbering,
  onBack,
  onStartOver,
  foresight,
  send,
}: {
  submission: PreparedSubmission;
  numbering: RowNumbering;
  /** What the rows will do at the service (creates, updates), above the cost. */
  foresight?: ReactNode;
  send: ReactNode;
  onBack: () => void;
  onStartOver: () => void;
}) {
  const chunks = submission.chunkRows.length;
  // A thousand rows laid out at once would hold the page's thread past 50 ms. The list starts with
  // twenty and grows by fifty a frame, few enough for a frame's layout to stay well under 50 ms
  // while the worker shares the cores. A frame, not a task: several tasks can run between two
  // frames, and the next would lay out all their rows.
  const [listed, setListed] = useState(SKIPPED_FIRST);
  const skippedCount = submission.skipped.length;
  useEffect(() => {
    if (listed >= skippedCount) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Called before the next frame is drawn; the timer runs after it.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setListed((count) => count + SKIPPED_PER_FRAME)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [listed, skippedCount]);
  return (
    <section aria-labelledby="ready-heading" className="space-y-5">
      <h2 id="ready-heading" className="text-lg font-semibold text-slate-900">Ready to submit</h2>
      <dl className="grid gap-4 sm:grid-cols-3">
        <Figure label="Rows to send" value={n(submission.submittedRows)} />
        <Figure label={`Files of up to ${n(submission.chunkSize)} rows`} value={n(chunks)} />
        <Figure label="Rows skipped" value={n(submission.skippedTotal)} />
      </dl>
      {foresight}
      {send}
      <div>
        <h3 id="ready-preview-heading" className="mb-2 text-sm font-semibold text-slate-900">First lines of the CSV as it would be sent</h3>
        {/* A region that scrolls is a Tab stop with a name, so a keyboard can scroll its long lines. */}
        <pre role="region" aria-labelledby="ready-preview-heading" tabIndex={0} className="overflow-x-auto rounded-lg bg-slate-900 p-4 text-xs leading-5 text-slate-100">{submission.previewCsv}</pre>
      </div>
      {submission.skippedTotal > 0 && (
        <div>
          <h3 id="ready-skipped-heading" className="mb-2 text-sm font-semibold text-slate-900">Skipped rows and why</h3>
          <div role="region" aria-labelledby="ready-skipped-heading" tabIndex={0} className="max-h-80 overflow-auto rounded-lg border border-slate-200 bg-white shadow-sm">
            {/* Fixed widths (a fixed layout needs a width): rows added to a table laid out by its content lay out every row again. */}
            <table className="w-full table-fixed divide-y divide-slate-200 text-sm">
              <colgroup>
                <col className="w-32" />
                <col />
              </colgroup>
              <thead className="sticky top-0 bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
                <tr>
                  <th scope="col" className="px-4 py-2">{numbering}</th>
                  <th scope="col" className="px-4 py-2">Reason</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {submission.skipped.slice(0, listed).map((row) => (
                  <tr key={row.rowNumber}>
                    <td className="px-4 py-2 font-mono">{row.rowNumber}</td>
                    <td className="break-words px-4 py-2">{row.reasons.join(' ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {submission.skippedTotal > submission.skipped.length && (
            <p className="mt-2 text-sm text-slate-600">Showing the first {n(submission.skipped.length)} of {plural(submission.skippedTotal, 'skipped row')}.</p>
          )}
        </div>
      )}
      <div className="flex justify-between border-t border-slate-200 pt-4">
        <Button variant="ghost" onClick={onBack}>Back to review</Button>
        <Button variant="secondary" onClick={onStartOver}>Import another file</Button>
      </div>
    </section>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900">{value}</dd>
    </div>
  );
}
