import type { MouseEvent } from 'react';
import type { Shipment } from '../../contract/shipment';
import { shipmentEditableSchema } from '../../contract/shipment-editable';
import { StatusBadge } from '../../components/status-badge';
import { humanize } from '../../components/humanize';
import { arrival, portName, processStatus } from './shipment-format';

const HEADERS = ['Reference', 'Tracking number', 'Type', 'Carrier', 'Tracking status', 'Loading (POL)', 'Discharge (POD)', 'ETA', 'Tags', 'Custom fields'];

/**
 * The shipments of one page. Each reference is a button that opens the shipment's panel (Enter or
 * click); a click anywhere on the row does the same for a mouse.
 */
export function ShipmentTable({
  shipments,
  fieldNames,
  busy,
  onOpen,
}: {
  shipments: Shipment[];
  /** Custom field names by slug, when the service lists them. */
  fieldNames: ReadonlyMap<string, string>;
  busy: boolean;
  onOpen: (shipment: Shipment, opener: HTMLButtonElement) => void;
}) {
  const openFromRow = (shipment: Shipment) => (event: MouseEvent<HTMLTableRowElement>) => {
    const button = event.currentTarget.querySelector('button');
    if (button && !(event.target instanceof HTMLButtonElement)) onOpen(shipment, button);
  };
  return (
    <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm" aria-busy={busy}>
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Shipments</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            {HEADERS.map((header) => (
              <th key={header} scope="col" className="whitespace-nowrap px-3 py-3">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {shipments.map((shipment) => {
            const status = processStatus(shipment.last_process_status);
            const eta = arrival(shipment);
            const { tags, custom_fields: customFields } = shipmentEditableSchema.parse(shipment);
            return (
              <tr key={shipment.id} onClick={openFromRow(shipment)} className="cursor-pointer align-top hover:bg-slate-50">
                <th scope="row" className="px-3 py-2.5 text-left font-medium">
                  <button
                    type="button"
                    aria-haspopup="dialog"
                    onClick={(event) => onOpen(shipment, event.currentTarget)}
                    className="whitespace-nowrap rounded text-brand-700 underline-offset-2 hover:underline"
                  >
                    {shipment.reference ?? shipment.tracking_number}
                  </button>
                  {shipment.name && <span className="block text-xs font-normal text-slate-500">{shipment.name}</span>}
                </th>
                <td className="px-3 py-2.5 font-mono">{shipment.tracking_number}</td>
                <td className="whitespace-nowrap px-3 py-2.5">{humanize(shipment.tracking_type)}</td>
                <td className="px-3 py-2.5 font-mono">{shipment.carrier_scac ?? '—'}</td>
                <td className="px-3 py-2.5">
                  <StatusBadge tone={status.tone}>{status.words}</StatusBadge>
                  {shipment.last_process_failure_reason && (
                    <span className="mt-1 block text-xs text-red-800">Reason: {humanize(shipment.last_process_failure_reason)}</span>
                  )}
                </td>
                <td className="px-3 py-2.5">{portName(shipment.tracking.pol) ?? '—'}</td>
                <td className="px-3 py-2.5">{portName(shipment.tracking.pod) ?? '—'}</td>
                <td className="whitespace-nowrap px-3 py-2.5">
                  {eta ? (
                    <>
                      {eta.date}
                      <span className="block text-xs text-slate-500">{eta.arrived ? 'arrived' : 'expected'}</span>
                    </>
                  ) : (
                    '—'
                  )}
                </td>
                <td className="px-3 py-2.5">
                  {tags.length > 0 ? (
                    <ul aria-label="Tags" className="flex flex-wrap gap-1">
                      {tags.map((tag) => (
                        <li key={tag} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                          {tag}
                        </li>
                      ))}
                    </ul>
                  ) : (
                    '—'
                  )}
                </td>
                <td className="px-3 py-2.5 text-xs">
                  {Object.keys(customFields).length > 0 ? (
                    <dl>
                      {Object.entries(customFields).map(([slug, value]) => (
                        <div key={slug} className="whitespace-nowrap">
                          <dt className="inline text-slate-500">{fieldNames.get(slug) ?? slug}: </dt>
                          <dd className="inline">{value}</dd>
                        </div>
                      ))}
                    </dl>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
