// Mounts /api/v1/* and /sandbox.json: the sandbox, or the proxy to UPSTREAM_URL (no
// /sandbox.json); and /console.json, which tells the console which of the two it is.
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from './config';
import type { ServerJobHostOptions } from './console/server-job-host';
import { registerConsoleInfo } from './console/console-info';
import { observeLocalImports, type ImportAnswerObserver } from './console/import-observer';
import { registerProxy } from './console/proxy';
import { registerSandbox } from './sandbox/sandbox';

export interface ApiDependencies {
  /** The fetch the proxy uses; tests pass one that answers in-process. */
  fetchUpstream?: typeof fetch;
  /** The jobs the console's server runs: where their requests go (the pacer wraps it), and their poll spacing (tests poll faster). */
  serverJobs?: Pick<ServerJobHostOptions, 'serviceFetch' | 'pollSpacing'>;
}

/** `observe` sees every import's answer, for the team history (console/import-observer.ts). */
export async function registerApi(app: FastifyInstance, config: ServerConfig, deps: ApiDependencies = {}, observe: ImportAnswerObserver | null = null): Promise<void> {
  registerConsoleInfo(app, config);
  if (config.upstreamUrl) {
    await registerProxy(app, config.upstreamUrl, deps.fetchUpstream, config.upstreamApiKey, observe);
  } else {
    if (observe) observeLocalImports(app, observe);
    await registerSandbox(app, config);
  }
}
