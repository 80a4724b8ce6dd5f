import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import type { ApiTarget } from '../../api/http-client';
import type { Shipment } from '../../contract/shipment';
import { Button } from '../../components/button';
import { StatusBadge } from '../../components/status-badge';
import { ContainerTimeline } from './container-timeline';
import type { CustomFieldInput } from './shipment-edit';
import { ShipmentEditForm } from './shipment-edit-form';
import { humanize } from '../../components/humanize';
import { arrival, portName, processStatus } from './shipment-format';

/**
 * One shipment beside the list: what the service tracks, its containers and events, and the form
 * that updates it. Not modal (the list stays usable); focus moves to its title when it opens, and
 * Escape or Close hands focus back to where it came from (the list does that on onClose).
 */
export function ShipmentPanel({
  target,
  shipment,
  customFields,
  members,
  onClose,
}: {
  target: ApiTarget;
  shipment: Shipment;
  customFields: readonly CustomFieldInput[];
  members: ReadonlySet<string> | null;
  onClose: () => void;
}) {
  const titleId = useId();
  const titleRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => titleRef.current?.focus(), [shipment.id]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && !event.defaultPrevented) {
      event.stopPropagation();
      onClose();
    }
  };
  const status = processStatus(shipment.last_process_status);
  const eta = arrival(shipment);
  const title = shipment.reference ?? shipment.tracking_number;

  return (
    <aside
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      onKeyDown={onKeyDown}
      className="fixed inset-y-0 right-0 z-40 flex w-full max-w-xl flex-col border-l border-slate-200 bg-white shadow-2xl"
    >
      <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-5 py-4">
        <div className="min-w-0">
          <p className="text-xs font-medium uppercase tracking-wide text-slate-500">Shipment</p>
          <h2 id={titleId} ref={titleRef} tabIndex={-1} className="truncate text-lg font-semibold text-slate-900">
            {title}
          </h2>
        </div>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
      <div className="flex-1 space-y-6 overflow-y-auto px-5 py-4">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
          <Detail term="Tracking number"><span className="font-mono">{shipment.tracking_number}</span></Detail>
          <Detail term="Type">{humanize(shipment.tracking_type)}</Detail>
          <Detail term="Carrier"><span className="font-mono">{shipment.carrier_scac ?? '—'}</span></Detail>
          <Detail term="Tracking status">
            <StatusBadge tone={status.tone}>{status.words}</StatusBadge>
            {shipment.last_process_failure_reason && <span className="ml-2 text-red-800">Reason: {humanize(shipment.last_process_failure_reason)}</span>}
          </Detail>
          <Detail term="Loading (POL)">{portName(shipment.tracking.pol) ?? '—'}</Detail>
          <Detail term="Discharge (POD)">{portName(shipment.tracking.pod) ?? '—'}</Detail>
          <Detail term="ETA">{eta ? `${eta.date} (${eta.arrived ? 'arrived' : 'expected'})` : '—'}</Detail>
        </dl>
        <ContainerTimeline target={target} shipment={shipment} />
        <section aria-labelledby={`${titleId}-edit`} className="space-y-3 border-t border-slate-200 pt-4">
          <h3 id={`${titleId}-edit`} className="text-sm font-semibold text-slate-900">
            Edit
          </h3>
          <ShipmentEditForm key={shipment.id} target={target} shipment={shipment} customFields={customFields} members={members} />
        </section>
      </div>
    </aside>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-500">{term}</dt>
      <dd className="text-slate-900">{children}</dd>
    </>
  );
}
