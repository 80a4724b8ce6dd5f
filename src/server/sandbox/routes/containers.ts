// GET /api/v1/shipment/:id/containers, the shipment's containers_uri: {data:[{number, iso_type, status, events}]}.
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../../../contract/error-body';
import type { SandboxServices } from './services';

export function registerContainers(api: FastifyInstance, { shipments }: SandboxServices): void {
  api.get<{ Params: { id: string } }>('/shipment/:id/containers', async (request, reply) => {
    const shipment = shipments.get(request.workspaceId, { id: request.params.id });
    if (!shipment) {
      return reply.code(404).send(errorBody('not_found', `There is no shipment with id ${request.params.id} in this workspace.`, 'id'));
    }
    return { data: shipments.containers(shipment.seq) };
  });
}
