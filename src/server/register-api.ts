// Mounts /api/v1/* and /sandbox.json: the sandbox, or the proxy to UPSTREAM_URL (no
// /sandbox.json); and /console.json, which tells the console which of the two it is.
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from './config';
import type { ServerJobHostOptions } from './console/server-job-host';
import { registerConsoleInfo } from './console/console-info';
import { observeLocalImports, type ImportAnswerObserver } from './console/import-observer';
import type { Pacer } from './console/pacer';
import { paceServiceRequests } from './console/pacer-hook';
import { registerProxy } from './console/proxy';
import type { WorkspaceOf } from './console/workspace-identity';
import { registerSandbox } from './sandbox/sandbox';

export interface ApiDependencies {
  /** The fetch the proxy uses; tests pass one that answers in-process. */
  fetchUpstream?: typeof fetch;
  /** The jobs the console's server runs: where their requests go (the pacer wraps it), and their poll spacing (tests poll faster). */
  serverJobs?: Pick<ServerJobHostOptions, 'serviceFetch' | 'pollSpacing'>;
}

/** What the console's server puts in front of the service's API: the import observer (team history) and the workspace's pacer. */
export interface ConsoleSide {
  observe: ImportAnswerObserver;
  pacer: Pacer | null;
  workspaceOf: WorkspaceOf;
}

/** `console` sees every import's answer, for the team history (console/import-observer.ts), and paces every request (console/pacer.ts), in both modes alike. */
export async function registerApi(app: FastifyInstance, config: ServerConfig, deps: ApiDependencies = {}, consoleSide: ConsoleSide | null = null): Promise<void> {
  registerConsoleInfo(app, config);
  if (consoleSide?.pacer) paceServiceRequests(app, consoleSide.pacer, consoleSide.workspaceOf);
  const observe = consoleSide?.observe ?? null;
  if (config.upstreamUrl) {
    await registerProxy(app, config.upstreamUrl, deps.fetchUpstream, config.upstreamApiKey, observe);
  } else {
    if (observe) observeLocalImports(app, observe);
    await registerSandbox(app, config);
  }
}
