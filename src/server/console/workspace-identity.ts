// Which workspace a request to the console server's own endpoints speaks for (DESIGN §7): the
// upstream service's, when the server holds the key (everyone here uses that one key); the
// sandbox's workspace of the request's key, in sandbox mode; else a keyed fingerprint of the
// pasted key (HMAC-SHA256 with the store's secret), so a browser sees only what was sent with a
// key it holds and the key itself is never kept.
import { createHmac } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The key a request's `Authorization: Bearer …` header carries, or null. */
export function bearerKey(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  return typeof header === 'string' ? (BEARER.exec(header)?.[1] ?? null) : null;
}

export type WorkspaceOf = (request: FastifyRequest) => string | null;

export interface WorkspaceIdentityOptions {
  /** The upstream's host when the server holds its key (UPSTREAM_API_KEY). */
  serverHeldKeyFor: string | null;
  /** Sandbox mode: the workspace of a key the sandbox knows, else null. */
  sandboxWorkspace: ((key: string) => string | null) | null;
  /** The secret of the pasted keys' fingerprints. */
  secret: Buffer;
}

export function workspaceIdentity({ serverHeldKeyFor, sandboxWorkspace, secret }: WorkspaceIdentityOptions): WorkspaceOf {
  return (request) => {
    if (serverHeldKeyFor !== null) return `upstream:${serverHeldKeyFor}`;
    const key = bearerKey(request);
    if (!key) return null;
    if (sandboxWorkspace) {
      const workspace = sandboxWorkspace(key);
      return workspace === null ? null : `sandbox:${workspace}`;
    }
    return `key:${createHmac('sha256', secret).update(key).digest('hex')}`;
  };
}
