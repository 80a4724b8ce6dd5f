// The batch page's body, loaded with the route: one batch's results (features/results), whose
// fix & retry opens the rows in the importer as a new job.
import { useNavigate, useParams } from '@tanstack/react-router';
import { useConnection } from '../../api/use-connection';
import { BatchResults } from '../../features/results/batch-results';
import { resultsThread } from '../../jobs/thread/results-reader';
import { stashRetry } from '../retry-handoff';

export function BatchRoute() {
  const { batchId } = useParams({ from: '/connected/batches/$batchId' });
  const connection = useConnection();
  const navigate = useNavigate();
  // The connected layout renders this only with a connection.
  if (!connection) return null;
  return (
    <BatchResults
      key={batchId}
      batchId={batchId}
      target={{ baseUrl: connection.baseUrl, apiKey: connection.apiKey }}
      thread={resultsThread}
      onFixAndRetry={(handoff) => {
        stashRetry(handoff);
        void navigate({ to: '/' });
      }}
    />
  );
}
