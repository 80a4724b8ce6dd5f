import { Link, Outlet } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { useConnection } from '../api/use-connection';

// The job runner is not needed to paint the first page: it loads just after, as its own chunk.
const JobPoller = lazy(() => import('../features/job/job-poller').then((m) => ({ default: m.JobPoller })));

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
      {/* Sends and polls import jobs on every page (only in the tab that holds the runner lock). */}
      <Suspense fallback={null}>
        <JobPoller />
      </Suspense>
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
  if (!connection) {
    return (
      <Link to="/connect" className="ml-auto flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm text-brand-100 hover:bg-white/20">
        <span aria-hidden="true" className="size-2 rounded-full bg-slate-400" />
        Not connected
      </Link>
    );
  }
  return (
    <p className="ml-auto flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm" aria-label={`Connected to ${connection.label}${connection.workspace ? `, workspace ${connection.workspace}` : ''}`}>
      <span aria-hidden="true" className="size-2 rounded-full bg-emerald-400" />
      <span>
        {connection.label}
        {connection.workspace && <span className="text-brand-100"> · {connection.workspace}</span>}
      </span>
    </p>
  );
}
