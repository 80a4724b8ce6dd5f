import { useRef } from 'react';
import { Button } from '../../components/button';
import { StatusBadge } from '../../components/status-badge';
import type { ColumnTarget } from '../../spreadsheet/column-mapping';
import { worstFirst } from '../../spreadsheet/row-issue';
import type { ReviewRowView, RowNumbering } from '../../workers/import-protocol';
import { ISSUE_LEVEL } from './issue-level';


/** Every issue of the selected row, in words, with its fix one click away. */
export function RowIssuesPanel({
  row,
  numbering,
  columns,
  onApplyFix,
  onClose,
}: {
  row: ReviewRowView;
  numbering: RowNumbering;
  columns: ColumnTarget[];
  onApplyFix: (column: number, value: string) => void;
  onClose: () => void;
}) {
  // An applied fix removes its own button; the focus moves to the panel's heading, not <body>.
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <section aria-labelledby="row-issues-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex items-center justify-between gap-2">
        <h3 id="row-issues-heading" ref={heading} tabIndex={-1} className="font-semibold text-slate-900">
          {numbering} {row.rowNumber}
          {row.excluded && <span className="ml-2 text-sm font-normal text-slate-600">(excluded)</span>}
        </h3>
        <Button variant="ghost" onClick={onClose}>Close</Button>
      </div>
      {row.serviceNotes && row.serviceNotes.length > 0 && (
        <ul className="mt-3 space-y-2" aria-label="What the service said">
          {row.serviceNotes.map((note, i) => (
            <li key={i} className="flex flex-wrap items-start gap-2 text-sm">
              <StatusBadge tone={note.level === 'error' ? 'danger' : 'warning'}>{note.level === 'error' ? 'Service error' : 'Service warning'}</StatusBadge>
              {note.column && <span className="font-mono text-xs leading-5 text-slate-600">{note.column}</span>}
              <span className="min-w-0 flex-1 text-slate-800">Service: {note.message}</span>
            </li>
          ))}
        </ul>
      )}
      {row.issues.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">
          {row.serviceNotes?.length ? 'No issues in this console’s checks: the row is sent again as it is now.' : 'No issues: this row is ready.'}
        </p>
      ) : (
        <ul className="mt-3 space-y-2">
          {worstFirst(row.issues).map((issue, i) => (
            <li key={i} className="flex flex-wrap items-start gap-2 text-sm">
              <StatusBadge tone={ISSUE_LEVEL[issue.level].tone}>{ISSUE_LEVEL[issue.level].word}</StatusBadge>
              <span className="font-mono text-xs leading-5 text-slate-600">{columns[issue.column] ?? ''}</span>
              <span className="min-w-0 flex-1 text-slate-800">{issue.message}</span>
              {issue.fix !== undefined && issue.level !== 'auto_fix' && (
                <Button
                  variant="secondary"
                  className="!py-1 text-xs"
                  onClick={() => {
                    onApplyFix(issue.column, issue.fix ?? '');
                    heading.current?.focus();
                  }}
                >
                  {/* An empty fix drops the value (a malformed e-mail): say so, not “Use “””. */}
                  {issue.fix === '' ? 'Clear the cell' : `Use “${issue.fix}”`}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
