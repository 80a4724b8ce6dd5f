import { Link } from '@tanstack/react-router';
import { useConnection } from '../../api/use-connection';
import { buttonClass } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { PlugIcon, UploadIcon } from '../../components/icons';
import { PageHeader } from '../../components/page-header';

export function ImportPage() {
  const connection = useConnection();
  return (
    <div>
      <PageHeader
        title="Import shipments"
        description="Drop a spreadsheet of container, bill of lading or booking numbers. You map its columns, fix what is wrong, and send the valid rows to the tracking service."
      />
      {connection ? (
        <EmptyState icon={<UploadIcon />} title="Drop a spreadsheet to start">
          CSV, XLS or XLSX. The file is read in your browser; nothing is sent until you submit.
        </EmptyState>
      ) : (
        <EmptyState icon={<PlugIcon />} title="Connect before you import" action={<Link to="/connect" className={buttonClass()}>Connect</Link>}>
          Imports go to the shipment tracking service. Connect with your API key, or try everything on the local sandbox first.
        </EmptyState>
      )}
    </div>
  );
}
