// GET /console/api/pacing: what the pacer is doing for the connection's workspace (the jobs
// sending, what waits, the next import slot, the buckets), for the browsers' rate-limit meter.
import type { FastifyInstance } from 'fastify';
import type { PacingView } from '../../contract/pacing';
import { workspaceOrRefuse } from './console-routes';
import { emptyView, type Pacer } from './pacer';
import type { WorkspaceOf } from './workspace-identity';

export function registerPacing(app: FastifyInstance, pacer: Pacer | null, workspaceOf: WorkspaceOf): void {
  const workspace = workspaceOrRefuse(workspaceOf, 'The pacing view needs');
  app.get('/console/api/pacing', (request, reply) => {
    const ws = workspace(request, reply);
    if (ws === null) return reply;
    return (pacer ? pacer.view(ws) : emptyView()) satisfies PacingView;
  });
}
