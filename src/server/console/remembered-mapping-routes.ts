// Remembered mappings for the whole workspace (DESIGN §1 journey 14), under /console/api/mappings:
// the sending browser keeps the mapping of a file made by hand under the fingerprint of its set of
// headers; any browser of the workspace lists them to map the next such file, and forgets one.
// Every answer is the workspace's alone. CONSOLE_KEEP_DAYS bounds them as it bounds the history:
// a mapping is remembered again each time a file is sent with it, so one in use is kept.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorBody } from '../../contract/error-body';
import { rememberedMappingSchema, type RememberedMapping, type RememberedMappingList } from '../../contract/remembered-mapping';
import { headerFingerprint } from '../../spreadsheet/remembered-mapping';
import type { ConsoleStore } from './console-store';
import type { WorkspaceOf } from './workspace-identity';

export interface RememberedMappingOptions {
  store: ConsoleStore;
  workspaceOf: WorkspaceOf;
  /** CONSOLE_USER_HEADER: the single-sign-on proxy's header naming the person, lower case; wins over the typed name. */
  userHeader: string | null;
  /** CONSOLE_KEEP_DAYS in milliseconds. */
  keepMs: number;
  now?: () => number;
}

const SWEEP_EVERY_MS = 3_600_000;
const params = z.object({ fingerprint: z.string().regex(/^[0-9a-f]{16}$/, 'a fingerprint is 16 hex digits') });

export function registerRememberedMappings(app: FastifyInstance, { store, workspaceOf, userHeader, keepMs, now = Date.now }: RememberedMappingOptions): void {
  const sweep = () => store.forgetMappingsOlderThan(now() - keepMs);
  sweep();
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  app.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    done();
  });

  /** The request's workspace, or null after answering 401. */
  const workspace = (request: FastifyRequest, reply: FastifyReply): string | null => {
    const found = workspaceOf(request);
    if (found === null) {
      void reply.code(401).send(errorBody('unauthorized', 'Remembered mappings need the API key this console is connected with, in the Authorization header.'));
    }
    return found;
  };
  const badRequest = (reply: FastifyReply, message: string, target: string | null) => reply.code(400).send(errorBody('bad_request', message, target));
  const zodSentence = (reply: FastifyReply, error: z.ZodError) => {
    const issue = error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    return badRequest(reply, `${where}${issue?.message ?? 'invalid request'}`, issue?.path.join('.') || null);
  };

  app.get('/console/api/mappings', (request, reply) => {
    const ws = workspace(request, reply);
    if (ws === null) return reply;
    return { data: store.mappings(ws) } satisfies RememberedMappingList;
  });

  app.put('/console/api/mappings/:fingerprint', (request, reply) => {
    const ws = workspace(request, reply);
    if (ws === null) return reply;
    const path = params.safeParse(request.params);
    if (!path.success) return zodSentence(reply, path.error);
    const body = rememberedMappingSchema.safeParse(request.body);
    if (!body.success) return zodSentence(reply, body.error);
    const computed = headerFingerprint(body.data.columns.map((column) => column.header));
    if (body.data.fingerprint !== path.data.fingerprint || computed !== path.data.fingerprint) {
      return badRequest(reply, `The fingerprint does not match the mapping's headers: they give ${computed}.`, 'fingerprint');
    }
    const header = userHeader === null ? undefined : request.headers[userHeader];
    const savedBy = (typeof header === 'string' && header.trim() !== '' ? header.trim().slice(0, 100) : null) ?? (body.data.savedBy || null);
    // A browser whose clock runs ahead must not pin its mapping over every later one: never later than now.
    return store.rememberMapping(ws, { ...body.data, savedAt: Math.min(body.data.savedAt, now()), savedBy }) satisfies RememberedMapping;
  });

  app.delete('/console/api/mappings/:fingerprint', (request, reply) => {
    const ws = workspace(request, reply);
    if (ws === null) return reply;
    const path = params.safeParse(request.params);
    if (!path.success) return zodSentence(reply, path.error);
    store.forgetMapping(ws, path.data.fingerprint);
    // Forgetting what is not remembered leaves the same state: an idempotent 204 either way.
    return reply.code(204).send();
  });
}
