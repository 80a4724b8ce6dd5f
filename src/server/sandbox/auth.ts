// Bearer-key authentication for /api/v1 routes. Keys are compared as SHA-256 digests with
// timingSafeEqual over every known key, so neither the key nor its position leaks through timing.
// A missing or unknown key is 401; a key that is known but disabled (SANDBOX_DISABLED_KEYS) is
// 403, as the real service answers a refused key or an account without API access.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../../contract/error-body';
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

function isDisabled(disabledHashes: readonly Buffer[], presented: string): boolean {
  const digest = hashKey(presented);
  let disabled = false;
  for (const hash of disabledHashes) {
    if (timingSafeEqual(hash, digest)) disabled = true;
  }
  return disabled;
}

export function addAuth(app: FastifyInstance, knownKeys: readonly KnownKey[], disabledKeys: readonly string[] = []): void {
  const disabledHashes = disabledKeys.map(hashKey);
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
    if (presented !== undefined && isDisabled(disabledHashes, presented)) {
      return reply
        .code(403)
        .send(errorBody('forbidden', 'This API key is disabled, or API access is not enabled for this account; ask the service for an enabled key.'));
    }
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
