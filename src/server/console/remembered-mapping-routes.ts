// Remembered mappings for the whole workspace (DESIGN §1 journey 14), under /console/api/mappings:
// the sending browser keeps the mapping of a file made by hand under the fingerprint of its set of
// headers; any browser of the workspace lists them to map the next such file, and forgets one.
// Every answer is the workspace's alone. CONSOLE_KEEP_DAYS bounds them as it bounds the history:
// a mapping is remembered again each time a file is sent with it, so one in use is kept.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { rememberedMappingSchema, type RememberedMapping, type RememberedMappingList } from '../../contract/remembered-mapping';
import { headerFingerprint } from '../../spreadsheet/remembered-mapping';
import { badRequest, invalid as zodSentence, sweepHourly, workspaceOrRefuse, writtenBy, type ConsoleRouteOptions } from './console-routes';

const params = z.object({ fingerprint: z.string().regex(/^[0-9a-f]{16}$/, 'a fingerprint is 16 hex digits') });

export function registerRememberedMappings(app: FastifyInstance, { store, workspaceOf, userHeader, keepMs, now = Date.now }: ConsoleRouteOptions): void {
  sweepHourly(app, () => store.forgetMappingsOlderThan(now() - keepMs));
  const workspace = workspaceOrRefuse(workspaceOf, 'Remembered mappings need');

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
    const savedBy = writtenBy(request, userHeader, body.data.savedBy);
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
