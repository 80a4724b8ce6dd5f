import { createRoute, Link, Outlet, useMatches } from '@tanstack/react-router';
import { useConnection } from '../../api/use-connection';
import { buttonClass } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { PlugIcon } from '../../components/icons';
import { PageHeader } from '../../components/page-header';
import { rootRoute } from './root';
import { RouteError } from './route-error';

/** What a page under the connected layout says when there is no connection yet. */
interface ConnectPrompt {
  /** The page's own title and description, shown above the prompt. */
  title: string;
  description: string;
  /** The prompt: "Connect before you import". */
  heading: string;
  body: string;
}

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    connectPrompt?: ConnectPrompt;
  }
}

/**
 * The pathless layout of every page that talks to the service: with a connection it renders the
 * page, without one the page's connect prompt. A page under it never checks the connection itself.
 * Add a page with `getParentRoute: () => connectedRoute` and a `staticData.connectPrompt`.
 */
export const connectedRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'connected',
  component: ConnectedLayout,
  errorComponent: RouteError,
});

function ConnectedLayout() {
  const connection = useConnection();
  const prompt = useMatches({ select: (matches) => matches.at(-1)?.staticData.connectPrompt });
  if (connection) return <Outlet />;
  return (
    <div>
      {prompt && <PageHeader title={prompt.title} description={prompt.description} />}
      <EmptyState icon={<PlugIcon />} title={prompt?.heading ?? 'Connect first'} action={<Link to="/connect" className={buttonClass()}>Connect</Link>}>
        {prompt?.body ?? 'This page talks to the tracking service. Connect with your API key, or use the local sandbox.'}
      </EmptyState>
    </div>
  );
}

/** The connection of a page under the connected layout, which renders it only with one. */
export function useConnectedTarget() {
  const connection = useConnection();
  if (!connection) throw new Error('A connected page was rendered without a connection.');
  return connection;
}
