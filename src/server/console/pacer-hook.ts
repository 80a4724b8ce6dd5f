// The pacer in front of the service's API, as an HTTP hook of the console's server: every
// /api/v1 request of a known workspace waits for its slot before the proxy forwards it or the
// sandbox handles it, so both modes are paced alike and the sandbox knows nothing of it. The job
// a request works for is named by the import's Idempotency-Key (`<job id>:<chunk id>`) or the
// X-Console-Job header; a request that names none is a person's and goes first. The answer's
// status and rate-limit headers go back to the pacer; a refusal is a 429 in the error shape.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONSOLE_JOB_HEADER } from '../../contract/pacing';
import { teamJobIdSchema } from '../../contract/team-history';
import { importedChunk } from './import-observer';
import { type Pacer, PacerRefusal, refusalBody, retryAfterSeconds, type Slot } from './pacer';
import type { WorkspaceOf } from './workspace-identity';

/** The job a request to the service works for, or null when it names none. */
export function jobOf(request: Pick<FastifyRequest, 'method' | 'url' | 'headers'>): string | null {
  const chunk = importedChunk(request);
  if (chunk) return chunk.jobId;
  const named = request.headers[CONSOLE_JOB_HEADER.toLowerCase()];
  return typeof named === 'string' && teamJobIdSchema.safeParse(named).success ? named : null;
}

const replyHeaders = (reply: FastifyReply) => ({
  get: (name: string) => {
    const value = reply.getHeader(name);
    return value === undefined ? null : String(value);
  },
});

export function paceServiceRequests(app: FastifyInstance, pacer: Pacer, workspaceOf: WorkspaceOf): void {
  const slots = new WeakMap<FastifyRequest, Slot>();
  const finish = (request: FastifyRequest, reply: FastifyReply) => {
    const slot = slots.get(request);
    if (!slot) return;
    slots.delete(request);
    slot.done(reply.raw.headersSent ? { status: reply.statusCode, headers: replyHeaders(reply) } : null);
  };

  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/v1/')) return;
    const workspace = workspaceOf(request);
    if (workspace === null) return;
    const started = performance.now();
    const gone = new AbortController();
    const leave = () => gone.abort(new Error('The client went away before its turn.'));
    reply.raw.once('close', leave);
    try {
      const slot = await pacer.schedule(workspace, { method: request.method, path: request.url, jobId: jobOf(request) }, gone.signal);
      slots.set(request, slot);
    } catch (error) {
      if (!(error instanceof PacerRefusal)) {
        // The caller left while waiting: nothing to answer.
        if (gone.signal.aborted) return reply;
        throw error;
      }
      return reply
        .code(429)
        .header('retry-after', String(retryAfterSeconds(error)))
        .header('server-timing', 'pacer;desc="refused"')
        .send(refusalBody(error));
    } finally {
      reply.raw.off('close', leave);
    }
    const slot = slots.get(request)!;
    reply.header('server-timing', `pacer;dur=${(performance.now() - started).toFixed(2)};desc="${slot.held ? 'held' : 'free'}"`);
    // The answer is done, or the connection closed before it was: either way the slot is given back.
    reply.raw.once('close', () => finish(request, reply));
  });
  app.addHook('onResponse', async (request, reply) => finish(request, reply));
}
