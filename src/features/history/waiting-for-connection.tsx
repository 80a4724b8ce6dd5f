// Jobs this tab cannot see or run for want of a connection. Jobs with work left that this browser
// runs: it is not connected, or connected to another service; one sentence says they resume once
// connected. Jobs the console's server runs: listed only for a connection to its workspace, so
// a tab with none says where they are. Each with the way to connect: one click for the bundled
// sandbox, else the Connect page.
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { connect, consoleInfoQueryOptions, sandboxConnection, sandboxInfoQueryOptions } from '../../api/connect';
import { useConnection } from '../../api/use-connection';
import { Alert } from '../../components/alert';
import { Button, buttonClass } from '../../components/button';
import type { ImportJob } from '../../jobs/import-job';
import { jobState, serviceName } from '../../jobs/job-state';

/** Connecting to the bundled sandbox in one click, offered only where this server is one. */
function useSandboxConnect(sandboxOnly: boolean) {
  const sandbox = useQuery({ ...sandboxInfoQueryOptions, enabled: sandboxOnly });
  const connectSandbox = useMutation({
    mutationFn: async () => {
      const next = await sandboxConnection();
      if (!next) throw new Error('This server no longer offers the local sandbox.');
      return connect(next);
    },
  });
  const oneClick = sandboxOnly && Boolean(sandbox.data);
  const action = oneClick ? (
    <Button onClick={() => connectSandbox.mutate()} disabled={connectSandbox.isPending}>
      {connectSandbox.isPending ? 'Connecting…' : 'Connect to the local sandbox'}
    </Button>
  ) : (
    <Link to="/connect" className={buttonClass()}>Connect</Link>
  );
  const problem = connectSandbox.isError && <span className="mt-1 block text-red-800">Could not connect: {connectSandbox.error.message}</span>;
  return { oneClick, action, problem };
}

export function WaitingForConnection({ jobs }: { jobs: readonly ImportJob[] }) {
  const connection = useConnection();
  const waiting = jobs.filter((job) => jobState(job, connection?.baseUrl ?? null).phase === 'waiting-for-connection');
  const services = [...new Set(waiting.map((job) => job.serviceUrl))];
  const { oneClick, action, problem } = useSandboxConnect(services.length === 1 && services[0] === '');
  if (waiting.length === 0) return null;
  const names = services.map(serviceName).join(' or ');
  return (
    <Alert tone="warning" title={`${waiting.length === 1 ? '1 import job waits' : `${waiting.length} import jobs wait`} for a connection`} action={action}>
      {waiting.length === 1 ? 'It resumes' : 'They resume'} sending and polling once this browser is connected to {oneClick ? 'the local sandbox' : names}.
      {problem}
    </Alert>
  );
}

/** Not connected, where the console's server runs the jobs: they go on there, and are listed once connected. */
export function ServerJobsNeedConnection() {
  const connection = useConnection();
  const info = useQuery(consoleInfoQueryOptions);
  const hidden = connection === null && info.data?.runs_jobs === true;
  const { oneClick, action, problem } = useSandboxConnect(hidden && info.data?.mode === 'sandbox');
  if (!hidden) return null;
  return (
    <Alert tone="info" title="Connect to see the jobs the console’s server sends" action={action}>
      Jobs sent from this browser keep running on the console’s server with every tab closed; they are listed here once this browser is connected to {oneClick ? 'the local sandbox' : 'their service'}.
      {problem}
    </Alert>
  );
}
