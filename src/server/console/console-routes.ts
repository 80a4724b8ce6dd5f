// What the console server's own endpoints share (/console/api/): the options they are built with,
// the request's workspace (or a 401), a 400 that names the field, the person a write is by, and
// the hourly sweep of what CONSOLE_KEEP_DAYS no longer keeps.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { errorBody } from '../../contract/error-body';
import type { ConsoleStore } from './console-store';
import { bearerKey, type WorkspaceOf } from './workspace-identity';

export interface ConsoleRouteOptions {
  store: ConsoleStore;
  workspaceOf: WorkspaceOf;
  /** CONSOLE_USER_HEADER: the single-sign-on proxy's header naming the person, lower case; wins over the typed name. */
  userHeader: string | null;
  /** CONSOLE_KEEP_DAYS in milliseconds. */
  keepMs: number;
  now?: () => number;
}

const SWEEP_EVERY_MS = 3_600_000;

/** Runs `sweep` now and every hour while the app is open. */
export function sweepHourly(app: FastifyInstance, sweep: () => void): void {
  sweep();
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  app.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    done();
  });
}

/** The request's workspace, or null after answering 401; `needs` starts the sentence ("The team history needs"). */
export function workspaceOrRefuse(workspaceOf: WorkspaceOf, needs: string) {
  return (request: FastifyRequest, reply: FastifyReply): string | null => {
    const found = workspaceOf(request);
    if (found === null) {
      const sentence =
        bearerKey(request) === null
          ? `${needs} the API key this console is connected with, in the Authorization header.`
          : `${needs} an API key the service accepts, and it refuses the one this browser sent: connect again with a valid key.`;
      void reply.code(401).send(errorBody('unauthorized', sentence));
    }
    return found;
  };
}

export function badRequest(reply: FastifyReply, message: string, target: string | null): FastifyReply {
  return reply.code(400).send(errorBody('bad_request', message, target));
}

/** A 400 whose sentence names the first field zod found wrong. */
export function invalid(reply: FastifyReply, error: z.ZodError): FastifyReply {
  const issue = error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return badRequest(reply, `${where}${issue?.message ?? 'invalid request'}`, issue?.path.join('.') || null);
}

/** Who a write is by: the single-sign-on header's value where it is set, else the typed name. */
export function writtenBy(request: FastifyRequest, userHeader: string | null, typed: string | null): string | null {
  const header = userHeader === null ? undefined : request.headers[userHeader];
  return (typeof header === 'string' && header.trim() !== '' ? header.trim().slice(0, 100) : null) ?? (typed || null);
}
