// GET /api/v1/shipments/imports/:batch_id: the batch with its counters and result items.
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../../../contract/error-body';
import type { SandboxServices } from './services';

export function registerBatchRead(api: FastifyInstance, { batches }: SandboxServices): void {
  api.get<{ Params: { batch_id: string } }>('/shipments/imports/:batch_id', async (request, reply) => {
    const batch = batches.get(request.workspaceId, request.params.batch_id);
    if (!batch) {
      return reply.code(404).send(errorBody('not_found', `There is no import batch ${request.params.batch_id} in this workspace.`, 'batch_id'));
    }
    return batch;
  });
}
