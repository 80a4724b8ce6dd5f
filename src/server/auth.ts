// Bearer-key authentication for /api/v1 routes. Keys are compared as SHA-256 digests with
// timingSafeEqual over every known key, so neither the key nor its position leaks through timing.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../contract/error-body';
import { hashKey } from './store/workspaces';

declare module 'fastify' {
  interface FastifyRequest {
    /** Workspace of the request's API key; set by the auth hook on every sandbox route. */
    workspaceId: string;
    /** Stable, non-secret id of the request's API key (hex digest), used as the rate-limit key. */
    keyId: string;
  }
}

interface KnownKey {
  keyHash: Buffer;
  workspaceId: string;
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export function findWorkspace(knownKeys: readonly KnownKey[], presented: string): string | null {
  const digest = hashKey(presented);
  let workspaceId: string | null = null;
  for (const known of knownKeys) {
    if (timingSafeEqual(known.keyHash, digest)) workspaceId = known.workspaceId;
  }
  return workspaceId;
}

export function addAuth(app: FastifyInstance, knownKeys: readonly KnownKey[]): void {
  app.decorateRequest('workspaceId', '');
  app.decorateRequest('keyId', '');
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === '') {
      return reply
        .code(401)
        .header('WWW-Authenticate', 'Bearer')
        .send(errorBody('unauthorized', 'This request has no API key; send the header "Authorization: Bearer <API key>".'));
    }
    const presented = BEARER.exec(header)?.[1];
    const workspaceId = presented === undefined ? null : findWorkspace(knownKeys, presented);
    if (presented === undefined || workspaceId === null) {
      return reply
        .code(401)
        .header('WWW-Authenticate', 'Bearer error="invalid_token"')
        .send(errorBody('unauthorized', 'The API key is not valid for this service; check the key or ask for a new one.'));
    }
    request.workspaceId = workspaceId;
    request.keyId = hashKey(presented).toString('hex');
  });
}
