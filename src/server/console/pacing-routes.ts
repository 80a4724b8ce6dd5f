// GET /console/api/pacing: what the pacer is doing for the connection's workspace (the jobs
// sending or waiting for results, what waits, the next import slot, the buckets), for the
// browsers' rate-limit meter. The team history says which jobs still have chunks to send.
import type { FastifyInstance } from 'fastify';
import type { PacingView } from '../../contract/pacing';
import type { ConsoleStore } from './console-store';
import { workspaceOrRefuse } from './console-routes';
import { emptyView, type Pacer } from './pacer';
import type { WorkspaceOf } from './workspace-identity';

/**
 * `jobsToSend`: the workspace's jobs this server sends that still have chunks to go out; they are
 * sending from the moment they are handed over, while their first import waits its turn.
 */
export function registerPacing(
  app: FastifyInstance,
  pacer: Pacer | null,
  workspaceOf: WorkspaceOf,
  history: Pick<ConsoleStore, 'jobProgress'>,
  jobsToSend: (workspace: string) => readonly string[] = () => [],
): void {
  const workspace = workspaceOrRefuse(workspaceOf, 'The pacing view needs');
  app.get('/console/api/pacing', (request, reply) => {
    const ws = workspace(request, reply);
    if (ws === null) return reply;
    if (!pacer) return emptyView() satisfies PacingView;
    const view = pacer.view(ws, (jobId) => history.jobProgress(ws, jobId));
    const queuedHere = jobsToSend(ws);
    if (queuedHere.length === 0) return view satisfies PacingView;
    const sending = new Set([...view.jobsSending, ...queuedHere]);
    return {
      ...view,
      jobsSending: [...sending].sort(),
      jobsWaitingForResults: view.jobsWaitingForResults.filter((id) => !sending.has(id)),
    } satisfies PacingView;
  });
}
