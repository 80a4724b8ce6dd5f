import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { containersQueryOptions } from '../../api/containers';
import type { ApiTarget } from '../../api/http-client';
import type { Container, Shipment } from '../../contract/shipment';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { humanize } from '../../components/humanize';
import { formatDate } from './shipment-format';

/** The shipment's containers (its containers_uri) and each one's events, oldest first. */
export function ContainerTimeline({ target, shipment }: { target: ApiTarget; shipment: Shipment }) {
  const headingId = useId();
  const query = useQuery(containersQueryOptions(target, shipment));
  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h3 id={headingId} className="text-sm font-semibold text-slate-900">
        Containers{query.data ? ` (${query.data.length})` : ''}
      </h3>
      {query.isPending && <p role="status" className="text-sm text-slate-600">Loading containers…</p>}
      {query.isError && (
        <Alert tone="error" title="Could not load the containers" action={<Button variant="secondary" onClick={() => void query.refetch()}>Retry</Button>}>
          {query.error.message}
        </Alert>
      )}
      {query.data?.length === 0 && (
        <p className="text-sm text-slate-600">
          The service lists no containers for this shipment{shipment.last_process_status === 'track_succeeded' ? '' : ' yet: they appear once tracking succeeds'}.
        </p>
      )}
      {query.data?.map((container) => <ContainerCard key={container.number} container={container} />)}
    </section>
  );
}

function ContainerCard({ container }: { container: Container }) {
  const headingId = useId();
  return (
    <article aria-labelledby={headingId} className="rounded-lg border border-slate-200 p-3">
      <h4 id={headingId} className="font-mono text-sm font-semibold text-slate-900">
        {container.number}
      </h4>
      <p className="text-xs text-slate-600">
        {[container.iso_type && `Type ${container.iso_type}`, container.status && `Status: ${humanize(container.status)}`].filter(Boolean).join(' · ') || 'No type or status given'}
      </p>
      {container.events.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No events yet.</p>
      ) : (
        <ol aria-label={`Events of ${container.number}`} className="mt-3 space-y-0">
          {container.events.map((event, index) => {
            const actual = event.actual === true;
            const when = formatDate(event.date);
            return (
              <li key={`${event.code ?? 'event'}-${index}`} className="relative flex gap-3 pb-3 last:pb-0">
                <span
                  aria-hidden="true"
                  className={`relative z-10 mt-1 size-3 shrink-0 rounded-full border-2 ${actual ? 'border-emerald-600 bg-emerald-600' : 'border-slate-400 bg-white'}`}
                />
                {index < container.events.length - 1 && <span aria-hidden="true" className="absolute left-[5px] top-4 bottom-0 w-0.5 bg-slate-300" />}
                <div className="min-w-0 text-sm">
                  <p className="font-medium text-slate-900">{event.description ?? (event.code ? humanize(event.code) : 'Event')}</p>
                  <p className="text-xs text-slate-600">
                    <span className={actual ? 'font-semibold text-emerald-800' : 'font-semibold text-slate-700'}>{actual ? 'Actual' : 'Planned'}</span>
                    {when && ` · ${when}`}
                    {event.location && ` · ${event.location}`}
                  </p>
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </article>
  );
}
