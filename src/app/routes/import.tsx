import { createRoute } from '@tanstack/react-router';
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

function ImportRoute() {
  return <ImportPage target={useConnectedTarget()} />;
}
