import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useId, useRef, useState, type FormEvent } from 'react';
import { customFieldsQueryOptions, sandboxInfoQueryOptions } from '../../api/connect';
import type { Connection } from '../../api/connection-store';
import { shipmentsQueryOptions } from '../../api/shipments';
import type { Shipment } from '../../contract/shipment';
import { shipmentEditableSchema } from '../../contract/shipment-editable';
import { Alert } from '../../components/alert';
import { Button, buttonClass } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { ShipIcon } from '../../components/icons';
import type { CustomFieldInput } from './shipment-edit';
import { ShipmentPager } from './shipment-pager';
import { ShipmentPanel } from './shipment-panel';
import { ShipmentTable } from './shipment-table';
import { PAGE_SIZE } from './shipments-search';

/** DESIGN §3 fixes the sandbox's `eta` as a date; a service that types its fields may say so itself. */
const isDateField = (field: { slug: string; type?: unknown }) => field.type === 'date' || field.slug === 'eta';

/** `batchFilter`: offer the batch id field (not while a job's batches choose the batch). */
export function ShipmentList({ connection, batchId, page, batchFilter = true }: { connection: Connection; batchId?: string; page: number; batchFilter?: boolean }) {
  const navigate = useNavigate({ from: '/shipments' });
  const query = useQuery(shipmentsQueryOptions(connection, { batchId, page, pageSize: PAGE_SIZE }));
  const fields = useQuery(customFieldsQueryOptions(connection)).data;
  // Members are known only from the bundled sandbox's /sandbox.json; elsewhere the service decides.
  const sandbox = useQuery({ ...sandboxInfoQueryOptions, enabled: connection.sandbox }).data;
  const members = connection.sandbox && sandbox ? new Set(sandbox.members.map((email) => email.toLowerCase())) : null;

  const [selected, setSelected] = useState<Shipment | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  // The panel shows the list's copy of the shipment, so a saved change appears in both at once.
  const shown = selected ? (query.data?.shipments.find((shipment) => shipment.id === selected.id) ?? selected) : null;

  const open = (shipment: Shipment, from: HTMLElement) => {
    opener.current = from;
    setSelected(shipment);
  };
  const close = () => {
    setSelected(null);
    if (opener.current?.isConnected) opener.current.focus();
  };
  const customFields: CustomFieldInput[] = fields
    ? fields.map((field) => ({ slug: field.slug, name: field.name, isDate: isDateField(field) }))
    : Object.keys(shown ? shipmentEditableSchema.parse(shown).custom_fields : {}).map((slug) => ({ slug, name: slug, isDate: isDateField({ slug }) }));

  return (
    <div className="space-y-4">
      {batchFilter && (
        <BatchFilter key={batchId ?? ''} batchId={batchId} onChange={(next) => void navigate({ search: (s) => ({ ...s, batch_id: next, page: undefined }) })} />
      )}
      {query.isError && (
        <Alert tone="error" title="Could not load shipments" action={<Button variant="secondary" onClick={() => void query.refetch()}>Retry</Button>}>
          {query.error.message}
        </Alert>
      )}
      {query.isPending && (
        <p role="status" className="rounded-lg border border-slate-200 bg-white px-4 py-10 text-center text-sm text-slate-600">
          Loading shipments…
        </p>
      )}
      {query.data && query.data.shipments.length === 0 && (
        page > 1 ? (
          <EmptyState icon={<ShipIcon />} title={`No shipments on page ${page}`} action={<Button onClick={() => void navigate({ search: (s) => ({ ...s, page: undefined }) })}>Go to page 1</Button>}>
            The list ends before this page.
          </EmptyState>
        ) : (
          <EmptyState icon={<ShipIcon />} title={batchId ? 'No shipments from this batch' : 'No shipments yet'} action={<Link to="/" className={buttonClass()}>Import a file</Link>}>
            {batchId
              ? 'This batch created or updated no shipments yet. A batch still processing adds them as it goes.'
              : 'Import a spreadsheet of container, bill of lading or booking numbers and the shipments appear here.'}
          </EmptyState>
        )
      )}
      {query.data && query.data.shipments.length > 0 && (
        <>
          <ShipmentTable
            shipments={query.data.shipments}
            fieldNames={new Map((fields ?? []).map((field) => [field.slug, field.name]))}
            busy={query.isPlaceholderData}
            onOpen={open}
          />
          <ShipmentPager
            pageInfo={query.data.pageInfo}
            busy={query.isPlaceholderData}
            onPage={(next) => void navigate({ search: (s) => ({ ...s, page: next === 1 ? undefined : next }) })}
          />
        </>
      )}
      {shown && <ShipmentPanel target={connection} shipment={shown} customFields={customFields} members={members} onClose={close} />}
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
    <form role="search" aria-label="Filter shipments" onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <div>
        <label htmlFor={id} className="block text-sm font-medium text-slate-800">
          Import batch
        </label>
        <input
          id={id}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder="Batch id (UUID)"
          className="mt-1 w-80 max-w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm shadow-sm"
        />
      </div>
      <Button type="submit" variant="secondary">
        Filter
      </Button>
      {batchId && (
        <>
          <Button variant="ghost" onClick={() => onChange(undefined)}>
            Show all
          </Button>
          {/* Every row's result, failed ones included: a failed row creates no shipment to list here. */}
          <Link to="/batches/$batchId" params={{ batchId }} className="px-1 py-2 text-sm font-medium text-brand-700 underline">
            Open its results
          </Link>
        </>
      )}
    </form>
  );
}
