import { Link } from '@tanstack/react-router';
import { StatusBadge } from '../../components/status-badge';
import { creationWords, trackingWords } from './outcome-words';
import type { RowNumbering } from '../../workers/import-protocol';
import { itemErrors, itemWarnings } from '../../jobs/result-item';
import type { ResultRowView as ResultRow } from '../../jobs/thread/results-protocol';

/** The selected row: what the service said, each problem with its column, and every column as sent. */
export function ResultDetails({ jobId, row, columns, numbering }: { jobId: string; row: ResultRow | undefined; columns: readonly string[]; numbering: RowNumbering }) {
  if (!row) {
    return (
      <section aria-label="Row details" className="rounded-lg border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-600">
        Select a row to see what the service said about it and every column as it was sent.
      </section>
    );
  }
  const creation = creationWords(row);
  const tracking = trackingWords(row);
  const problems = [...itemErrors(row.item).map((p) => ({ ...p, level: 'Error' })), ...itemWarnings(row.item).map((p) => ({ ...p, level: 'Warning' }))];
  return (
    <section aria-label={`${numbering} ${row.rowNumber} details`} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-base font-semibold text-slate-900">
          {numbering} {row.rowNumber}
        </h3>
        <StatusBadge tone={creation.tone}>{creation.text}</StatusBadge>
        <StatusBadge tone={tracking.tone}>{tracking.text}</StatusBadge>
      </div>
      {/* The service counts the rows of each file it got (row_number); its messages use that count. */}
      <p className="text-slate-600">
        {numbering} {row.rowNumber} of the file is row {row.batchRow} of its batch as the service counts them (row_number).
      </p>
      {problems.length > 0 ? (
        <ul className="space-y-1.5" aria-label="Errors and warnings">
          {problems.map((problem, i) => (
            <li key={i} className={problem.level === 'Error' ? 'text-red-800' : 'text-amber-900'}>
              <span className="font-semibold">{problem.level}</span>
              {problem.column && (
                <>
                  {' in '}
                  <code className="rounded bg-slate-100 px-1 text-slate-800">{problem.column}</code>
                </>
              )}
              : {problem.message}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-slate-600">No errors or warnings.</p>
      )}
      {row.item?.shipmentId ? (
        <p>
          Shipment <code className="rounded bg-slate-100 px-1">{row.item.shipmentId}</code>:{' '}
          <Link to="/shipments" search={{ job: jobId, batch_id: row.batchId }} className="font-medium text-brand-700 underline">
            open the shipments of its batch
          </Link>
        </p>
      ) : (
        <p className="text-slate-600">No shipment was created or updated from this row.</p>
      )}
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        {columns.map((column, c) => (
          <div key={column} className="contents">
            <dt className="font-mono text-xs leading-5 text-slate-600">{column}</dt>
            <dd className="break-all font-mono text-xs leading-5 text-slate-900">{row.values[c] || <span className="text-slate-500">empty</span>}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
