import type { ImportJob } from '../../jobs/import-job';
import type { RowNumbering } from '../../spreadsheet/row-numbering';
import { problemLines, type JobView } from './job-view';
import { formatCount as n } from '../../components/plural';


function Check({ ok, pending, children }: { ok: boolean; pending?: boolean; children: React.ReactNode }) {
  const word = pending ? 'Not settled yet' : ok ? 'Holds' : 'Does not hold';
  const colour = pending ? 'text-slate-600' : ok ? 'text-emerald-800' : 'text-red-800';
  return (
    <li className="flex items-start gap-2">
      <span className={`shrink-0 font-semibold ${colour}`}>
        <span aria-hidden="true">{pending ? '…' : ok ? '✓' : '✕'}</span> {word}:
      </span>
      <span>{children}</span>
    </li>
  );
}

/** The accounting invariant, in words: every row read is sent or skipped with a reason, exactly once. */
export function AccountingPanel({ job, view }: { job: ImportJob; view: JobView }) {
  const a = view.accounting;
  const settled = a.toSend === 0 && a.unknown === 0;
  const batchesDone = view.batches.every((b) => b.finishedAt !== null);
  return (
    <section aria-labelledby="accounting-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="accounting-heading" className="text-lg font-semibold text-slate-900">Every row accounted for</h2>
      <ul className="space-y-1 text-sm text-slate-800">
        <Check ok={a.readAddsUp && settled} pending={a.readAddsUp && !settled}>
          rows read {n(a.read)} = sent {n(a.sent)} + skipped {n(a.skipped)}
          {!settled && <> + still to send {n(a.toSend)} + answer lost {n(a.unknown)}</>}
        </Check>
        <Check ok={a.sentMatchesBatches}>
          rows sent {n(a.sent)} = Σ total_requests of the {n(view.batches.length)} batches {n(a.totalRequests)}
        </Check>
        <Check ok={a.everyRowOneItem} pending={a.everyRowOneItem && !batchesDone}>
          every sent row is in exactly one result item{a.unmatched > 0 && <> ({n(a.unmatched)} items or rows could not be paired)</>}
        </Check>
      </ul>
      {a.skipReasons.length > 0 && (
        <div>
          <h3 className="text-sm font-semibold text-slate-900">Skipped rows and why</h3>
          <ul className="mt-1 list-disc pl-5 text-sm text-slate-700">
            {a.skipReasons.slice(0, 20).map((r) => (
              <li key={r.reason}>
                {n(r.rows)} {r.rows === 1 ? 'row' : 'rows'}: {r.reason}
              </li>
            ))}
          </ul>
          {a.skipReasons.length > 20 && <p className="text-sm text-slate-600">and {n(a.skipReasons.length - 20)} other reasons.</p>}
        </div>
      )}
      {job.skippedBeforeSend.length > 0 && <p className="text-sm text-slate-600">Rows skipped before sending were invalid or excluded in the review step.</p>}
    </section>
  );
}

/**
 * Warnings and errors the service reported per row, and rows whose tracking failed, as they arrive
 * (the first ones; the rest are in the results), numbered as the importer numbered the file: Line
 * for a text file, Row for a sheet.
 */
export function RowProblems({ job, view, numbering }: { job: ImportJob; view: JobView; numbering: RowNumbering }) {
  if (view.problemTotal === 0) return null;
  const lines = problemLines(job, view.problems, numbering);
  return (
    <section className="space-y-3">
      <h2 id="problems-heading" className="text-lg font-semibold text-slate-900">Row warnings and errors</h2>
      {/* A box that scrolls is a Tab stop named by its heading, so a keyboard can scroll it. */}
      <div role="region" aria-labelledby="problems-heading" tabIndex={0} className="max-h-96 overflow-auto rounded-lg border border-slate-200 bg-white shadow-sm">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <thead className="sticky top-0 bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="px-4 py-2">{numbering}</th>
              <th scope="col" className="px-4 py-2">Level</th>
              <th scope="col" className="px-4 py-2">Column</th>
              <th scope="col" className="px-4 py-2">Message</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {lines.map((p, i) => (
              <tr key={`${p.rowNumber}-${i}`}>
                <td className="px-4 py-2 font-mono">{p.rowNumber}</td>
                <td className={`whitespace-nowrap px-4 py-2 font-medium ${p.level === 'Warning' ? 'text-amber-900' : 'text-red-800'}`}>{p.level}</td>
                <td className="px-4 py-2 font-mono">{p.column ?? '—'}</td>
                <td className="px-4 py-2">{p.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {view.problemTotal > view.problems.length && (
        <p className="text-sm text-slate-600">Showing the first {n(view.problems.length)} of {n(view.problemTotal)} warnings, errors and tracking failures.</p>
      )}
    </section>
  );
}
