// GET /api/v1/shipments and /api/v1/shipments/: newest first, optional batch_id filter,
// 1-based paging with `pagination` = {page, page_size, total, total_pages} (DESIGN §3).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../../../contract/error-body';
import { shipmentListQuerySchema } from '../../../contract/shipment';
import type { SandboxServices } from './services';

export function registerShipmentList(api: FastifyInstance, { batches, shipments }: SandboxServices): void {
  const list = async (request: FastifyRequest, reply: FastifyReply) => {
    const query = shipmentListQuerySchema.safeParse(request.query);
    if (!query.success) {
      const issue = query.error.issues[0];
      const target = typeof issue?.path[0] === 'string' ? issue.path[0] : null;
      return reply.code(400).send(errorBody('bad_request', issue?.message ?? 'The query is not valid.', target));
    }
    const { batch_id: batchId, page, page_size: pageSize } = query.data;
    let batchSeq: number | null = null;
    if (batchId !== undefined) {
      batchSeq = batches.findSeq(request.workspaceId, batchId) ?? null;
      if (batchSeq === null) {
        return reply.code(404).send(errorBody('not_found', `There is no import batch ${batchId} in this workspace.`, 'batch_id'));
      }
    }
    const result = shipments.page(request.workspaceId, batchSeq, page, pageSize);
    return {
      data: result.data,
      pagination: { page, page_size: pageSize, total: result.total, total_pages: Math.ceil(result.total / pageSize) },
    };
  };
  api.get('/shipments', list);
  api.get('/shipments/', list);
}
