import { Link, Outlet } from '@tanstack/react-router';
import { useConnection, useReachability } from '../api/use-connection';

const navItems = [
  { to: '/', label: 'Import', exact: true },
  { to: '/history', label: 'History', exact: false },
  { to: '/shipments', label: 'Shipments', exact: false },
  { to: '/connect', label: 'Connect', exact: false },
] as const;

export function AppShell() {
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <header className="bg-brand-900 text-white shadow">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-8 gap-y-2 px-6 py-3">
          <Link to="/" className="flex items-center gap-2.5 font-semibold tracking-tight">
            <img src="/favicon.svg" alt="" className="size-7" />
            <span>Shipment Import Console</span>
          </Link>
          <nav aria-label="Main" className="flex gap-1">
            {navItems.map((item) => (
              <Link
                key={item.to}
                to={item.to}
                activeOptions={{ exact: item.exact }}
                className="rounded-md px-3 py-1.5 text-sm font-medium text-brand-100 hover:bg-white/10 hover:text-white"
                activeProps={{ className: 'bg-white/15 text-white' }}
              >
                {item.label}
              </Link>
            ))}
          </nav>
          <ConnectionStatus />
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-6 py-8">
        <Outlet />
      </main>
      <footer className="border-t border-slate-200 py-4 text-center text-xs text-slate-500">
        Files are read and checked in your browser. Only the rows you submit are sent.
      </footer>
    </div>
  );
}

function ConnectionStatus() {
  const connection = useConnection();
  const reachability = useReachability();
  if (!connection) {
    return (
      <Link to="/connect" className="ml-auto flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm text-brand-100 hover:bg-white/20">
        <span aria-hidden="true" className="size-2 rounded-full bg-slate-400" />
        Not connected
      </Link>
    );
  }
  const service = `${connection.label}${connection.workspace ? `, workspace ${connection.workspace}` : ''}`;
  // The console's last request to the service got no answer (reachability.ts): said in words,
  // with the HTTP module's sentence and its time for whoever points at it. A status, so a screen
  // reader hears the change; its words change only when the reachability does.
  const unreachable = reachability.status === 'unreachable';
  return (
    <p
      role="status"
      className={`ml-auto flex items-center gap-2 rounded-full px-3 py-1 text-sm ${unreachable ? 'bg-amber-400/15 ring-1 ring-inset ring-amber-300/60' : 'bg-white/10'}`}
      title={unreachable ? `${reachability.message} (${new Date(reachability.at).toLocaleTimeString('en-GB', { timeStyle: 'short' })})` : undefined}
    >
      <span aria-hidden="true" className={`size-2 rounded-full ${unreachable ? 'bg-amber-400' : 'bg-emerald-400'}`} />
      <span aria-hidden="true">
        {connection.label}
        {connection.workspace && <span className="text-brand-100"> · {connection.workspace}</span>}
        {unreachable && <span className="font-semibold text-amber-200"> · unreachable</span>}
      </span>
      <span className="sr-only">{unreachable ? `${service}: unreachable, the last request got no answer` : `${service}: connected`}</span>
    </p>
  );
}
