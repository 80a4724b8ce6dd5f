// The team history's endpoints (DESIGN §1 journey 12), under /console/api/: the sending browser
// reports its job and the rows of each chunk as sent; any browser of the same workspace lists the
// workspace's jobs (search by file name, job id, batch id or reference), reads one, its rows as
// sent, which job a batch came from, and which of a list of references and tracking numbers its
// jobs sent (the Ready step's foresight). Every answer is the workspace's alone: another
// workspace's id reads as one the history does not hold, never "forbidden".
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { errorBody } from '../../contract/error-body';
import {
  teamChunkRowsSchema,
  teamJobIdSchema,
  teamJobReportSchema,
  teamSeenQuerySchema,
  type TeamBatchOrigin,
  type TeamJob,
  type TeamJobList,
  type TeamJobReceipt,
  type TeamSeenAnswer,
} from '../../contract/team-history';
import { invalid as badRequest, sweepHourly, workspaceOrRefuse, writtenBy, type ConsoleRouteOptions } from './console-routes';

const jobParams = z.object({ id: teamJobIdSchema });
const chunkParams = z.object({ id: teamJobIdSchema, chunkId: z.coerce.number().int().min(0).max(1_000_000) });
const batchParams = z.object({ batchId: z.string().min(1).max(200) });
const listQuery = z.object({ q: z.string().max(500).optional() });

export function registerTeamHistory(app: FastifyInstance, { store, workspaceOf, userHeader, keepMs, now = Date.now }: ConsoleRouteOptions): void {
  sweepHourly(app, () => store.forgetOlderThan(now() - keepMs));
  const workspace = workspaceOrRefuse(workspaceOf, 'The team history needs');
  const notFound = (reply: FastifyReply, what: string) => reply.code(404).send(errorBody('not_found', `${what} is not in this workspace's team history.`));

  app.get('/console/api/jobs', (request, reply) => {
    const ws = workspace(request, reply);
    if (ws === null) return reply;
    const query = listQuery.safeParse(request.query);
    if (!query.success) return badRequest(reply, query.error);
    return store.list(ws, query.data.q) satisfies TeamJobList;
  });

  app.get('/console/api/workspace', (request, reply) => {
    const ws = workspace(request, reply);
    if (ws === null) return reply;
    return { tag: store.workspaceTag(ws) };
  });

  app.get('/console/api/jobs/:id', (request, reply) => {
    const ws = workspace(request, reply);
    if (ws === null) return reply;
    const params = jobParams.safeParse(request.params);
    if (!params.success) return badRequest(reply, params.error);
    return { job: store.job(ws, params.data.id) satisfies TeamJob | null };
  });

  app.put('/console/api/jobs/:id', (request, reply) => {
    const ws = workspace(request, reply);
    if (ws === null) return reply;
    const params = jobParams.safeParse(request.params);
    if (!params.success) return badRequest(reply, params.error);
    const report = teamJobReportSchema.safeParse(request.body);
    if (!report.success) return badRequest(reply, report.error);
    if (!store.reportJob(ws, params.data.id, report.data, writtenBy(request, userHeader, report.data.sentBy), now())) return notFound(reply, 'This import job');
    return { rowsKept: store.rowsKept(ws, params.data.id) } satisfies TeamJobReceipt;
  });

  app.put('/console/api/jobs/:id/chunks/:chunkId/rows', (request, reply) => {
    const ws = workspace(request, reply);
    if (ws === null) return reply;
    const params = chunkParams.safeParse(request.params);
    if (!params.success) return badRequest(reply, params.error);
    const rows = teamChunkRowsSchema.safeParse(request.body);
    if (!rows.success) return badRequest(reply, rows.error);
    if (!store.keepChunkRows(ws, params.data.id, params.data.chunkId, rows.data)) return notFound(reply, 'This import job');
    return reply.code(204).send();
  });

  app.get('/console/api/jobs/:id/chunks/:chunkId/rows', (request, reply) => {
    const ws = workspace(request, reply);
    if (ws === null) return reply;
    const params = chunkParams.safeParse(request.params);
    if (!params.success) return badRequest(reply, params.error);
    return store.chunkRows(ws, params.data.id, params.data.chunkId) ?? notFound(reply, "This chunk's rows as sent");
  });

  // 5,000 keys of each kind at most: a body of at most 4 MB (500 + 200 characters each, JSON-escaped).
  app.post('/console/api/seen', { bodyLimit: 4 * 1_048_576 }, (request, reply) => {
    const ws = workspace(request, reply);
    if (ws === null) return reply;
    const query = teamSeenQuerySchema.safeParse(request.body);
    if (!query.success) return badRequest(reply, query.error);
    return store.seen(ws, query.data) satisfies TeamSeenAnswer;
  });

  app.get('/console/api/batches/:batchId', (request, reply) => {
    const ws = workspace(request, reply);
    if (ws === null) return reply;
    const params = batchParams.safeParse(request.params);
    if (!params.success) return badRequest(reply, params.error);
    return { origin: store.batchOrigin(ws, params.data.batchId) satisfies TeamBatchOrigin | null };
  });
}
