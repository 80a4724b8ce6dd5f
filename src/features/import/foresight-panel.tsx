// The Ready step's "what the rows will do": creates, updates of existing shipments, rows without a
// reference and the possible duplicates among them, each count opening its rows in the review grid;
// what the foresight is known from, and, where that is partial, Check against the service.
import { useEffect, useRef } from 'react';
import { Button } from '../../components/button';
import { formatCount as n, plural } from '../../components/plural';
import { serviceCheckCost } from '../../jobs/service-check';
import { describeForesight, foresightParts } from '../../spreadsheet/row-foresight';
import type { ForesightCounts, ForesightFilter } from '../../workers/import-protocol';
import type { ServiceCheck, SourceState } from './use-foresight';

/** "a", "a and b", "a, b and c". */
const inWords = (parts: readonly string[]) => (parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`);

const time = (ms: number) => new Date(ms).toLocaleTimeString('en-GB');

export function ForesightPanel({
  counts,
  browser,
  team,
  service,
  remaining,
  resetAt,
  reserve,
  onShowRows,
  onCheck,
  onReadFrom,
  onCancel,
}: {
  counts: ForesightCounts | null;
  browser: SourceState;
  team: SourceState;
  service: ServiceCheck;
  /** Requests the service allows now in its window, and when that resets (null: not known). */
  remaining: number | null;
  resetAt: number | null;
  reserve: number;
  onShowRows: (filter: ForesightFilter) => void;
  onCheck: () => void;
  onReadFrom: (page: number, known: { totalPages: number | null; total: number | null }) => void;
  onCancel: () => void;
}) {
  // A button that goes away under the focus (Check → Cancel → done) leaves the focus on the
  // check's status, not on the page's body.
  const checkArea = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const area = checkArea.current;
    if (area && (document.activeElement === document.body || document.activeElement === null)) area.focus();
  }, [service.state]);

  const known = [
    browser.state === 'read' && browser.detail !== '' ? `this browser’s ${browser.detail}` : null,
    team.state === 'read' ? team.detail : null,
    service.state === 'read' ? `the service’s ${service.total === null ? 'shipments' : plural(service.total, 'shipment')}` : null,
  ].filter((part): part is string => part !== null);
  const reading = browser.state === 'reading' || team.state === 'reading';
  const gaps = [
    browser.state === 'failed' ? `This browser’s past jobs could not be read: ${browser.message}` : null,
    team.state === 'absent' ? 'There is no team history here (this browser talks straight to the service), so jobs colleagues sent from other browsers are not known.' : null,
    team.state === 'failed' ? `The team history could not be read: ${team.message}` : null,
    service.state === 'read'
      ? null
      : `The service’s own shipments are ${'pagesRead' in service && service.pagesRead > 0 ? `read only in part (the newest ${n(service.pagesRead * 100)})` : 'not read'}: a reference sent another way (another tool, the API) may not be known, so a row foreseen to create may update.`,
  ].filter((gap): gap is string => gap !== null);

  return (
    <section aria-labelledby="foresight-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h3 id="foresight-heading" className="text-base font-semibold text-slate-900">What the rows will do at the service</h3>
      <p className="text-sm text-slate-700">
        The service updates the shipment of a reference it knows and creates one for a new reference; a row without a reference always creates one.
      </p>
      {counts ? (
        <p className="text-base text-slate-900">
          {foresightParts(counts).map((part, i) => (
            <span key={part.key}>
              {i > 0 && (part.key === 'possible_duplicates' ? ', ' : ' · ')}
              <button
                type="button"
                aria-describedby="foresight-filter-note"
                onClick={() => onShowRows(part.key)}
                className={`rounded font-semibold underline decoration-dotted underline-offset-4 hover:text-brand-800 ${part.key === 'possible_duplicates' ? 'text-amber-800' : 'text-slate-900'}`}
              >
                {part.text}
              </button>
            </span>
          ))}
        </p>
      ) : (
        <p className="text-sm text-slate-700">Foreseeing the rows…</p>
      )}
      {counts && <p id="foresight-filter-note" className="text-xs text-slate-600">Each count opens its rows in the review grid.</p>}
      <div role="status" className="space-y-1 text-sm text-slate-700">
        <p>
          {reading ? 'Reading what this console knows of earlier imports… ' : ''}
          {known.length > 0 ? `Known from ${inWords(known)}.` : reading ? '' : 'Nothing is known of earlier imports.'}
        </p>
        {!reading && counts && <p className="sr-only">Foreseen: {describeForesight(counts)}.</p>}
        {/* Shown while the sources are read too: the panel does not grow a line under a person's click on Send. */}
        {gaps.map((gap) => <p key={gap}>{gap}</p>)}
      </div>
      <div ref={checkArea} tabIndex={-1} aria-labelledby="service-check-heading" role="group" className="space-y-2 rounded-md bg-slate-50 p-3 outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
        <h4 id="service-check-heading" className="text-sm font-semibold text-slate-900">Check against the service</h4>
        <ServiceCheckStatus service={service} remaining={remaining} resetAt={resetAt} reserve={reserve} onCheck={onCheck} onReadFrom={onReadFrom} onCancel={onCancel} />
      </div>
    </section>
  );
}

function ServiceCheckStatus({
  service,
  remaining,
  resetAt,
  reserve,
  onCheck,
  onReadFrom,
  onCancel,
}: {
  service: ServiceCheck;
  remaining: number | null;
  resetAt: number | null;
  reserve: number;
  onCheck: () => void;
  onReadFrom: (page: number, known: { totalPages: number | null; total: number | null }) => void;
  onCancel: () => void;
}) {
  const budget =
    remaining === null
      ? 'The service has not said yet how many requests it allows now.'
      : `The service allows ${plural(remaining, 'more request')} in its current window${resetAt === null ? '' : ` (until ${time(resetAt)})`}; the check stops when ${n(reserve)} are left for sending this file and its status checks.`;
  const of = (pages: number | null) => (pages === null ? '' : ` of ${n(pages)}`);
  switch (service.state) {
    case 'not-read':
      return (
        <>
          <p className="text-sm text-slate-700">
            Reads every shipment of the workspace, 100 per request, for their references and tracking numbers: 1 request first, which tells how many more the rest needs
            before they are made. {budget}
          </p>
          <Button variant="secondary" onClick={onCheck}>Check against the service</Button>
        </>
      );
    case 'counting':
      return (
        <p role="status" className="text-sm text-slate-700">
          Counting the service’s shipments (1 request)…
        </p>
      );
    case 'confirm':
    case 'stopped':
    case 'failed': {
      const cost = service.totalPages === null ? null : serviceCheckCost({ totalPages: service.totalPages, pagesRead: service.pagesRead, remaining, reserve });
      const said =
        service.state === 'stopped'
          ? service.why === 'reserve'
            ? `Stopped after ${n(service.pagesRead)}${of(service.totalPages)} pages, at the budget’s reserve: the rows are foreseen against the shipments read so far.`
            : `Cancelled after ${n(service.pagesRead)}${of(service.totalPages)} pages: the rows are foreseen against the shipments read so far.`
          : service.state === 'failed'
            ? `The check failed after ${n(service.pagesRead)}${of(service.totalPages)} pages: ${service.message}`
            : `The service holds ${service.total === null ? 'more than 100 shipments' : plural(service.total, 'shipment')}; page 1 is read.`;
      const rest =
        cost === null
          ? 'The rest takes 1 request per 100 shipments, until a page comes back short.'
          : `The rest takes ${plural(cost.requests, 'request')}${cost.affordable !== null && cost.affordable < cost.requests ? `; the budget allows ${n(cost.affordable)} of them before its reserve, and the check will stop there` : ''}.`;
      return (
        <>
          <p className="text-sm text-slate-700">
            {said} {rest} {budget}
          </p>
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => (service.pagesRead === 0 ? onCheck() : onReadFrom(service.pagesRead + 1, { totalPages: service.totalPages, total: service.total }))}>
              {service.state === 'confirm' ? `Read the rest${cost ? ` (${plural(cost.requests, 'request')})` : ''}` : 'Check again from where it stopped'}
            </Button>
            {service.state === 'confirm' && (
              <Button variant="ghost" onClick={onCancel}>
                Cancel
              </Button>
            )}
          </div>
        </>
      );
    }
    case 'reading':
      return (
        <>
          <p role="status" className="text-sm text-slate-700">
            Reading the service’s shipments: page {n(service.pagesRead)}
            {of(service.totalPages)} read… {budget}
          </p>
          <Button variant="ghost" onClick={onCancel}>
            Cancel the check
          </Button>
        </>
      );
    case 'read':
      return (
        <p className="text-sm text-slate-700">
          Checked against the service’s {service.total === null ? 'shipments' : plural(service.total, 'shipment')} ({plural(service.pagesRead, 'request')}).
        </p>
      );
  }
}
