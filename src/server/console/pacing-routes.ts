// GET /console/api/pacing: what the pacer is doing for the connection's workspace (the jobs
// sending or waiting for results, what waits, the next import slot, the buckets), for the
// browsers' rate-limit meter. The team history says which jobs still have chunks to send.
import type { FastifyInstance } from 'fastify';
import type { PacingView } from '../../contract/pacing';
import type { ConsoleStore } from './console-store';
import { workspaceOrRefuse } from './console-routes';
import { emptyView, type Pacer } from './pacer';
import type { WorkspaceOf } from './workspace-identity';

export function registerPacing(app: FastifyInstance, pacer: Pacer | null, workspaceOf: WorkspaceOf, history: Pick<ConsoleStore, 'jobProgress'>): void {
  const workspace = workspaceOrRefuse(workspaceOf, 'The pacing view needs');
  app.get('/console/api/pacing', (request, reply) => {
    const ws = workspace(request, reply);
    if (ws === null) return reply;
    return (pacer ? pacer.view(ws, (jobId) => history.jobProgress(ws, jobId)) : emptyView()) satisfies PacingView;
  });
}
