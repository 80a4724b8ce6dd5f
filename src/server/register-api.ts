// Mounts /api/v1/* and /sandbox.json: the sandbox, or the proxy to UPSTREAM_URL.
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from './config';

export async function registerApi(_app: FastifyInstance, _config: ServerConfig): Promise<void> {
  // The sandbox (issue #3) plugs in here.
}
