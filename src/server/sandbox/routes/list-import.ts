// POST /api/v1/shipments/imports: a JSON array of shipment requests becomes a batch (202).
// Only the list as a whole is checked here; each entry is checked when it is processed, so a
// bad entry fails its row, not the request. With an Idempotency-Key, a repeat of the same list
// within SANDBOX_IDEMPOTENCY_HOURS gets the first batch back (src/server/README.md, "Idempotency keys").
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../../../contract/error-body';
import type { SubmittedRow } from '../store/batches';
import { readIdempotencyKey, REPLAYED_HEADER, repeatAnswer } from '../store/idempotency';
import type { SandboxServices } from './services';

function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

function submittedRow(input: unknown): SubmittedRow {
  const fields = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  return {
    input,
    reference: text(fields.reference),
    trackingNumber: text(fields.tracking_number) ?? '',
    trackingType: text(fields.tracking_type) ?? '',
    carrierScac: text(fields.carrier_scac),
    name: text(fields.name),
  };
}

export function registerListImport(api: FastifyInstance, { batches, processor, config }: SandboxServices): void {
  api.post('/shipments/imports', { config: { rateLimitBucket: 'import_list' } }, async (request, reply) => {
    const body = request.body;
    if (!Array.isArray(body)) {
      return reply
        .code(400)
        .send(errorBody('bad_request', 'The body must be a JSON array of shipment requests (Content-Type: application/json).'));
    }
    if (body.length === 0) {
      return reply.code(400).send(errorBody('bad_request', 'The import list is empty; send at least one shipment request.'));
    }
    if (body.length > config.maxBatchRows) {
      return reply
        .code(413)
        .send(errorBody('too_large', `The list has ${body.length} shipment requests; one import takes at most ${config.maxBatchRows}.`));
    }
    const key = readIdempotencyKey(request.headers['idempotency-key'], 'list', JSON.stringify(body), Date.now(), config.idempotencyRetentionMs);
    if (!key.ok) return reply.code(400).send(key.body);
    const made = batches.create(request.workspaceId, 'list', body.map(submittedRow), key.request ?? undefined);
    if (made.kind !== 'created') {
      const answer = repeatAnswer(made, config.idempotencyRetentionMs);
      if (answer.status === 202) reply.header(REPLAYED_HEADER, 'true');
      return reply.code(answer.status).send(answer.body);
    }
    processor.start(made.seq);
    return reply.code(202).send(made.batch);
  });
}
