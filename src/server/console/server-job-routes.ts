// The endpoints of the jobs the console's server runs (contract/server-jobs.ts), under
// /console/api/server-jobs: the browser's Send makes one with its rows; any browser of the same
// workspace lists and reads them, makes the user's decisions (cancel, resume, resend or skip an
// unknown chunk, notify) and deletes one; the results read its chunks' rows as sent and its
// batches' outcomes. Every answer is the caller's workspace's alone: another workspace's job id
// reads as unknown. A request carrying a pasted key hands it to the workspace's runner
// (job-host.ts), which keeps it in memory while the workspace's jobs run.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorBody } from '../../contract/error-body';
import { newServerJobSchema, serverJobDecisionSchema } from '../../contract/server-jobs';
import { teamJobIdSchema } from '../../contract/team-history';
import type { ChunkPayload, ImportJob } from '../../jobs/import-job';
import { madeJob } from '../../jobs/job-machine';
import { JobNotFoundError } from '../../jobs/storage/job-storage';
import { invalid, workspaceOrRefuse, writtenBy } from './console-routes';
import { type JobHosts, SERVER_JOB_SERVICE_URL, type WorkspaceJobs } from './job-host';
import { bearerKey, type WorkspaceOf } from './workspace-identity';

const jobParams = z.object({ id: teamJobIdSchema });
const chunkParams = z.object({ id: teamJobIdSchema, chunkId: z.coerce.number().int().min(0).max(10_000_000) });
const batchParams = z.object({ id: teamJobIdSchema, batchId: z.string().min(1).max(200) });


export interface ServerJobRouteOptions {
  hosts: JobHosts;
  workspaceOf: WorkspaceOf;
  userHeader: string | null;
  /** The largest job one Send hands over (its rows as JSON). */
  maxJobBytes: number;
  now?: () => number;
}

export function registerServerJobs(app: FastifyInstance, { hosts, workspaceOf, userHeader, maxJobBytes, now = Date.now }: ServerJobRouteOptions): void {
  const workspace = workspaceOrRefuse(workspaceOf, 'Jobs run by the console’s server need');
  const notFound = (reply: FastifyReply) => reply.code(404).send(errorBody('not_found', 'This import job is not one the console’s server runs for this workspace.'));

  /** The caller's workspace's jobs, with the key its request carries; null after answering 401. */
  async function jobsOf(request: FastifyRequest, reply: FastifyReply, handsJob = false): Promise<WorkspaceJobs | null> {
    const ws = workspace(request, reply);
    if (ws === null) return null;
    const key = bearerKey(request);
    return hosts.forRequest(ws, key, { handsJob });
  }

  app.get('/console/api/server-jobs', async (request, reply) => {
    const host = await jobsOf(request, reply);
    if (!host) return reply;
    return { data: await host.store.listJobs() };
  });

  app.post('/console/api/server-jobs', { bodyLimit: maxJobBytes }, async (request, reply) => {
    const host = await jobsOf(request, reply, true);
    if (!host) return reply;
    const parsed = newServerJobSchema.safeParse(request.body);
    if (!parsed.success) return invalid(reply, parsed.error);
    const { chunks, createdAt, sentBy, ...fields } = parsed.data;
    let job: ImportJob;
    try {
      job = madeJob({ ...fields, at: createdAt, serviceUrl: SERVER_JOB_SERVICE_URL }, chunks);
    } catch (error) {
      return reply.code(400).send(errorBody('bad_request', error instanceof Error ? error.message : String(error), 'chunks'));
    }
    job = { ...job, runsOn: 'console-server', sentBy: writtenBy(request, userHeader, sentBy) };
    if (!host.hasKey()) {
      return reply.code(401).send(errorBody('unauthorized', 'The console’s server sends with the key of the browser that hands it a job: connect with your API key, then send again.'));
    }
    const payloads: ChunkPayload[] = chunks.map((chunk, chunkId) => ({ jobId: job.id, chunkId, rowNumbers: chunk.rowNumbers, body: chunk.body, ...(chunk.foreseen === undefined ? {} : { foreseen: chunk.foreseen }) }));
    // The same Send again (its answer was lost): the job as kept.
    const kept = await host.store.getJob(job.id);
    if (kept !== undefined) return reply.code(201).send({ job: kept });
    try {
      await host.store.storage.create(job, payloads);
    } catch {
      // The same Send made it meanwhile (a retry overlapping the first request): the job as kept.
      const made = await host.store.getJob(job.id);
      if (made !== undefined) return reply.code(201).send({ job: made });
      // The id is taken (another workspace's job): a new Send makes a new one.
      return reply.code(409).send(errorBody('bad_request', 'An import job with this id already exists; send again.', 'id'));
    }
    await host.store.reload();
    return reply.code(201).send({ job });
  });

  app.get('/console/api/server-jobs/:id', async (request, reply) => {
    const host = await jobsOf(request, reply);
    if (!host) return reply;
    const params = jobParams.safeParse(request.params);
    if (!params.success) return invalid(reply, params.error);
    const job = await host.store.getJob(params.data.id);
    return job ? { job } : notFound(reply);
  });

  app.post('/console/api/server-jobs/:id/decisions', async (request, reply) => {
    const host = await jobsOf(request, reply);
    if (!host) return reply;
    const params = jobParams.safeParse(request.params);
    if (!params.success) return invalid(reply, params.error);
    const decision = serverJobDecisionSchema.safeParse(request.body);
    if (!decision.success) return invalid(reply, decision.error);
    try {
      const { job, refused } = await host.store.apply(params.data.id, { ...decision.data, at: now() });
      return { job, refused };
    } catch (error) {
      if (error instanceof JobNotFoundError) return notFound(reply);
      throw error;
    }
  });

  app.delete('/console/api/server-jobs/:id', async (request, reply) => {
    const host = await jobsOf(request, reply);
    if (!host) return reply;
    const params = jobParams.safeParse(request.params);
    if (!params.success) return invalid(reply, params.error);
    await host.store.deleteJob(params.data.id);
    return reply.code(204).send();
  });

  app.get('/console/api/server-jobs/:id/payloads/:chunkId', async (request, reply) => {
    const host = await jobsOf(request, reply);
    if (!host) return reply;
    const params = chunkParams.safeParse(request.params);
    if (!params.success) return invalid(reply, params.error);
    return (await host.store.getPayload(params.data.id, params.data.chunkId)) ?? notFound(reply);
  });

  app.get('/console/api/server-jobs/:id/outcomes', async (request, reply) => {
    const host = await jobsOf(request, reply);
    if (!host) return reply;
    const params = jobParams.safeParse(request.params);
    if (!params.success) return invalid(reply, params.error);
    return { data: await host.store.getOutcomes(params.data.id) };
  });

  app.get('/console/api/server-jobs/:id/outcomes/:batchId', async (request, reply) => {
    const host = await jobsOf(request, reply);
    if (!host) return reply;
    const params = batchParams.safeParse(request.params);
    if (!params.success) return invalid(reply, params.error);
    return (await host.store.getOutcome(params.data.id, params.data.batchId)) ?? notFound(reply);
  });
}
