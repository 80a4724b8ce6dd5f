import { createRoute } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { clearRetry, peekRetry } from '../retry-handoff';
import { IMPORT_PAGE, ImportPage } from '../../features/import/import-page';
import { connectedRoute, useConnectedTarget } from './connected';
import { RouteError } from './route-error';

// The first page most people see: not lazy, so it paints without a second request.
export const importRoute = createRoute({
  getParentRoute: () => connectedRoute,
  path: '/',
  staticData: {
    connectPrompt: {
      ...IMPORT_PAGE,
      heading: 'Connect before you import',
      body: 'Imports go to the shipment tracking service. Connect with your API key, or try everything on the local sandbox first.',
    },
  },
  component: ImportRoute,
  errorComponent: RouteError,
});

/** The job page's code (its route, then the progress and results it loads lazily), loaded ahead of Send. */
function preloadJobPage(): void {
  void import('./job-view').then((view) => view.preloadJobBody());
}

function ImportRoute() {
  const target = useConnectedTarget();
  // Fix & retry's rows, read once as a dropped CSV file; the new job's source links back.
  const [retry] = useState(() => {
    const handoff = peekRetry();
    return handoff
      ? {
          file: new File([handoff.csv], handoff.fileName, { type: 'text/csv' }),
          rows: handoff.rows,
          source: { kind: 'retry' as const, jobId: handoff.jobId, label: handoff.label, ...(handoff.batchId === undefined ? {} : { batchId: handoff.batchId }) },
        }
      : undefined;
  });
  useEffect(() => clearRetry(), []);
  return <ImportPage target={target} retry={retry} preloadJobPage={preloadJobPage} />;
}
