// Jobs with work left that this tab cannot run: it is not connected, or connected to another
// service. One sentence says they resume once connected, with the way to connect: one click for
// the bundled sandbox, else the Connect page.
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { connect, sandboxConnection, sandboxInfoQueryOptions } from '../../api/connect';
import { useConnection } from '../../api/use-connection';
import { Alert } from '../../components/alert';
import { Button, buttonClass } from '../../components/button';
import type { ImportJob } from '../../jobs/import-job';
import { jobState, serviceName } from '../../jobs/job-state';

export function WaitingForConnection({ jobs }: { jobs: readonly ImportJob[] }) {
  const connection = useConnection();
  const waiting = jobs.filter((job) => jobState(job, connection?.baseUrl ?? null).phase === 'waiting-for-connection');
  const services = [...new Set(waiting.map((job) => job.serviceUrl))];
  const sandboxOnly = services.length === 1 && services[0] === '';
  const sandbox = useQuery({ ...sandboxInfoQueryOptions, enabled: sandboxOnly });
  const connectSandbox = useMutation({
    mutationFn: async () => {
      const next = await sandboxConnection();
      if (!next) throw new Error('This server no longer offers the local sandbox.');
      return connect(next);
    },
  });
  if (waiting.length === 0) return null;
  const names = services.map(serviceName).join(' or ');
  const oneClick = sandboxOnly && sandbox.data;
  return (
    <Alert
      tone="warning"
      title={`${waiting.length === 1 ? '1 import job waits' : `${waiting.length} import jobs wait`} for a connection`}
      action={
        oneClick ? (
          <Button onClick={() => connectSandbox.mutate()} disabled={connectSandbox.isPending}>
            {connectSandbox.isPending ? 'Connecting…' : 'Connect to the local sandbox'}
          </Button>
        ) : (
          <Link to="/connect" className={buttonClass()}>Connect</Link>
        )
      }
    >
      {waiting.length === 1 ? 'It resumes' : 'They resume'} sending and polling once this browser is connected to {oneClick ? 'the local sandbox' : names}.
      {connectSandbox.isError && <span className="mt-1 block text-red-800">Could not connect: {connectSandbox.error.message}</span>}
    </Alert>
  );
}
