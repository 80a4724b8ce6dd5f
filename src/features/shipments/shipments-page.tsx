import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useConnection } from '../../api/use-connection';
import { Alert } from '../../components/alert';
import { buttonClass } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { ShipIcon } from '../../components/icons';
import { PageHeader } from '../../components/page-header';
import type { JobsSnapshot } from '../../jobs/job-store';
import { JobBatchesBar, JobPicker } from './job-picker';
import { jobBatches } from './job-shipments';
import { ShipmentList } from './shipment-list';

/**
 * The shipment list, all of it, of one batch (`?batch_id=`), or of one import job of this browser
 * (`?job=`: its batches, one at a time). `jobs` is the job store's snapshot, read only; the route
 * passes it, and `onReloadJobs` to read it again.
 */
export function ShipmentsPage({ jobs, onReloadJobs }: { jobs: JobsSnapshot; onReloadJobs: () => void }) {
  const connection = useConnection();
  const search = useSearch({ from: '/connected/shipments' });
  const navigate = useNavigate({ from: '/shipments' });
  const job = search.job ? jobs.jobs.find((candidate) => candidate.id === search.job) : undefined;
  const batches = job ? jobBatches(job) : [];
  // A job's list shows the batch the URL names if it is one of the job's, else the job's first.
  const batchId = search.job ? (batches.find((batch) => batch.batchId === search.batch_id) ?? batches[0])?.batchId : search.batch_id;

  return (
    <div>
      <PageHeader
        title="Shipments"
        description="Shipments in your workspace, newest first. Pick an import job, or filter by an import batch, to see what one import created or updated; open one to see its containers and edit it."
      />
      {/* The connected layout route renders this page only with a connection. */}
      {connection && (
        <div className="space-y-4">
          <JobPicker
            jobs={jobs}
            jobId={search.job}
            onReload={onReloadJobs}
            onChange={(next) => void navigate({ search: { job: next } })}
          />
          {search.job && jobs.status === 'ready' && !job ? (
            <Alert tone="warning" title="Import job not found" action={<Link to="/shipments" className={buttonClass('secondary')}>Show all shipments</Link>}>
              This browser has no import job {search.job}. Jobs live in the browser that sent them; it may have been removed from History.
            </Alert>
          ) : job && batches.length === 0 ? (
            <EmptyState icon={<ShipIcon />} title="No batch from this job yet" action={<Link to="/imports/$jobId" params={{ jobId: job.id }} className={buttonClass()}>Open the import job</Link>}>
              The service has not accepted any of this job’s rows yet. Its shipments appear here once a batch is accepted.
            </EmptyState>
          ) : (
            (!search.job || job) && (
              <>
                {job && <JobBatchesBar job={job} batches={batches} batchId={batchId} connection={connection} onBatch={(next) => void navigate({ search: { job: job.id, batch_id: next } })} />}
                <ShipmentList batchId={batchId} page={search.page ?? 1} connection={connection} batchFilter={!search.job} />
              </>
            )
          )}
        </div>
      )}
    </div>
  );
}
