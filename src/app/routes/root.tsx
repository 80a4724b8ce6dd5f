import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { AlertIcon } from '../../components/icons';
import { AppShell } from '../app-shell';
import { RouteError } from './route-error';

interface RouterContext {
  queryClient: QueryClient;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: AppShell,
  errorComponent: RouteError,
  notFoundComponent: () => (
    <EmptyState icon={<AlertIcon />} title="Page not found" action={<Link to="/" className={buttonClass()}>Go to Import</Link>}>
      This address is not a page of the console.
    </EmptyState>
  ),
});
