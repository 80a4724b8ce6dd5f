import { useSearch } from '@tanstack/react-router';
import { useConnection } from '../../api/use-connection';
import { PageHeader } from '../../components/page-header';
import { ShipmentList } from './shipment-list';

export function ShipmentsPage() {
  const connection = useConnection();
  const search = useSearch({ from: '/connected/shipments' });

  return (
    <div>
      <PageHeader
        title="Shipments"
        description="Shipments in your workspace, newest first. Filter by an import batch to see what one import created or updated; open one to see its containers and edit it."
      />
      {/* The connected layout route renders this page only with a connection. */}
      {connection && <ShipmentList batchId={search.batch_id} page={search.page ?? 1} connection={connection} />}
    </div>
  );
}
