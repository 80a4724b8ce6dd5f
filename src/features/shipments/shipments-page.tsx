import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useId, useState, type FormEvent } from 'react';
import { shipmentsQueryOptions } from '../../api/shipments';
import { useConnection } from '../../api/use-connection';
import type { PortCall, Shipment } from '../../contract/shipment';
import { Alert } from '../../components/alert';
import { Button, buttonClass } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { ShipIcon } from '../../components/icons';
import { PageHeader } from '../../components/page-header';
import { StatusBadge, type StatusTone } from '../../components/status-badge';

const PAGE_SIZE = 25;

export function ShipmentsPage() {
  const connection = useConnection();
  const search = useSearch({ from: '/connected/shipments' });

  return (
    <div>
      <PageHeader
        title="Shipments"
        description="Shipments in your workspace, newest first. Filter by an import batch to see what one import created or updated."
      />
      {/* The connected layout route renders this page only with a connection. */}
      {connection && <ShipmentList batchId={search.batch_id} page={search.page ?? 1} target={connection} />}
    </div>
  );
}

function ShipmentList({ batchId, page, target }: { batchId?: string; page: number; target: { baseUrl: string; apiKey: string } }) {
  const navigate = useNavigate({ from: '/shipments' });
  const query = useQuery(shipmentsQueryOptions(target, { batchId, page, pageSize: PAGE_SIZE }));
  const total = query.data?.pagination.total;
  const totalPages = query.data?.pagination.total_pages ?? (query.data && query.data.data.length === PAGE_SIZE ? page + 1 : page);

  return (
    <div className="space-y-4">
      <BatchFilter batchId={batchId} onChange={(next) => void navigate({ search: { batch_id: next, page: undefined } })} />
      {query.isError && (
        <Alert tone="error" title="Could not load shipments" action={<Button variant="secondary" onClick={() => void query.refetch()}>Retry</Button>}>
          {query.error.message}
        </Alert>
      )}
      {query.isPending && <p role="status" className="text-sm text-slate-600">Loading shipments…</p>}
      {query.data && query.data.data.length === 0 && (
        <EmptyState icon={<ShipIcon />} title={batchId ? 'No shipments from this batch' : 'No shipments yet'} action={<Link to="/" className={buttonClass()}>Import a file</Link>}>
          {batchId
            ? 'This batch created or updated no shipments yet. A batch still processing adds them as it goes.'
            : 'Import a spreadsheet of container, bill of lading or booking numbers and the shipments appear here.'}
        </EmptyState>
      )}
      {query.data && query.data.data.length > 0 && (
        <>
          <ShipmentTable shipments={query.data.data} />
          <nav aria-label="Pages" className="flex items-center justify-between text-sm text-slate-700">
            <p>
              Page {page} of {Math.max(totalPages, 1)}
              {total !== undefined && ` · ${total.toLocaleString('en')} shipment${total === 1 ? '' : 's'}`}
            </p>
            <div className="flex gap-2">
              <Button variant="secondary" disabled={page <= 1} onClick={() => void navigate({ search: (s) => ({ ...s, page: page - 1 }) })}>
                Previous
              </Button>
              <Button variant="secondary" disabled={page >= totalPages} onClick={() => void navigate({ search: (s) => ({ ...s, page: page + 1 }) })}>
                Next
              </Button>
            </div>
          </nav>
        </>
      )}
    </div>
  );
}

function BatchFilter({ batchId, onChange }: { batchId?: string; onChange: (batchId: string | undefined) => void }) {
  const id = useId();
  const [value, setValue] = useState(batchId ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange(value.trim() || undefined);
  };
  return (
    <form role="search" onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <div>
        <label htmlFor={id} className="block text-sm font-medium text-slate-800">Import batch</label>
        <input
          id={id}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder="Batch id (UUID)"
          className="mt-1 w-80 rounded-md border border-slate-300 px-3 py-2 font-mono text-sm shadow-sm"
        />
      </div>
      <Button type="submit" variant="secondary">Filter</Button>
      {batchId && (
        <Button variant="ghost" onClick={() => { setValue(''); onChange(undefined); }}>
          Show all
        </Button>
      )}
    </form>
  );
}

function processTone(status: Shipment['last_process_status']): StatusTone {
  if (status === 'track_succeeded') return 'success';
  if (status === 'track_failed') return 'danger';
  return status ? 'progress' : 'neutral';
}

const humanize = (value: string) => value.replace(/_/g, ' ');

function port(call: PortCall | null | undefined): string {
  if (!call) return '—';
  return call.name ? `${call.name}${call.locode ? ` (${call.locode})` : ''}` : (call.locode ?? '—');
}

function ShipmentTable({ shipments }: { shipments: Shipment[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Shipments</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            {['Reference', 'Tracking number', 'Type', 'Carrier', 'Status', 'Loading', 'Discharge', 'ETA'].map((h) => (
              <th key={h} scope="col" className="px-4 py-3">{h}</th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {shipments.map((s) => (
            <tr key={s.id} className="hover:bg-slate-50">
              <td className="px-4 py-2.5 font-medium text-slate-900">{s.reference ?? '—'}</td>
              <td className="px-4 py-2.5 font-mono">{s.tracking_number}</td>
              <td className="px-4 py-2.5">{humanize(s.tracking_type)}</td>
              <td className="px-4 py-2.5 font-mono">{s.carrier_scac ?? '—'}</td>
              <td className="px-4 py-2.5">
                <StatusBadge tone={processTone(s.last_process_status)}>{s.last_process_status ? humanize(s.last_process_status) : 'unknown'}</StatusBadge>
                {s.last_process_failure_reason && <span className="ml-2 text-xs text-red-700">{humanize(s.last_process_failure_reason)}</span>}
              </td>
              <td className="px-4 py-2.5">{port(s.tracking.pol)}</td>
              <td className="px-4 py-2.5">{port(s.tracking.pod)}</td>
              <td className="px-4 py-2.5 whitespace-nowrap">{s.tracking.pod?.date?.slice(0, 10) ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
