import { Link, useSearch } from '@tanstack/react-router';
import { useConnection } from '../../api/use-connection';
import { buttonClass } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { PlugIcon } from '../../components/icons';
import { PageHeader } from '../../components/page-header';
import { ShipmentList } from './shipment-list';

export function ShipmentsPage() {
  const connection = useConnection();
  const search = useSearch({ from: '/shipments' });

  return (
    <div>
      <PageHeader
        title="Shipments"
        description="Shipments in your workspace, newest first. Filter by an import batch to see what one import created or updated; open one to see its containers and edit it."
      />
      {connection ? (
        <ShipmentList batchId={search.batch_id} page={search.page ?? 1} connection={connection} />
      ) : (
        <EmptyState icon={<PlugIcon />} title="Connect to see shipments" action={<Link to="/connect" className={buttonClass()}>Connect</Link>}>
          Shipments come from the tracking service. Connect with an API key, or use the local sandbox.
        </EmptyState>
      )}
    </div>
  );
}
