// The Shipments page's body, loaded with the route (lazy): the shipment list beside this browser's
// import jobs (read only, for the job picker). Kept apart from shipments.tsx so that the job store
// and its IndexedDB code are not in the console's first load.
import { useJobs } from '../../features/job/use-jobs';
import { ShipmentsPage } from '../../features/shipments/shipments-page';
import { jobStore } from '../../jobs/job-runtime';

export function ShipmentsRoute() {
  const jobs = useJobs();
  return <ShipmentsPage jobs={jobs} onReloadJobs={() => void jobStore.reload()} />;
}
