// The server: the sandbox API (or the proxy to the real service) plus the built console.
// buildApp() does not listen, so tests drive it in-process with inject(); main.ts listens.
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { errorBody } from '../contract/error-body';
import { formatCount } from '../spreadsheet/read-error';
import { DEFAULT_TABLE_LIMITS } from '../spreadsheet/table-limits';
import { answerClientError } from './client-error';
import type { ServerConfig } from './config';
import { notFoundHandler, serveConsole } from './console/console-static';
import { addJsonDepthLimit } from './json-body';
import { addSecurityHeaders } from './console/security-headers';
import { registerApi, type ApiDependencies, type ConsoleSide } from './register-api';
import { findWorkspace } from './sandbox/auth';
import { sandboxKeys } from './sandbox/sandbox-keys';
import { hashKey } from './sandbox/store/workspaces';
import { ConsoleStore } from './console/console-store';
import { registerTeamHistory } from './console/team-history-routes';
import { registerRememberedMappings } from './console/remembered-mapping-routes';
import { workspaceIdentity } from './console/workspace-identity';
import { importObserver } from './console/import-observer';
import { registerServerJobHost } from './console/server-job-host';
import { Pacer } from './console/pacer';
import { registerPacing } from './console/pacing-routes';

export async function buildApp(config: ServerConfig, deps: ApiDependencies = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    // JSON import lists are capped by rows (SANDBOX_MAX_BATCH_ROWS); this only stops abuse.
    bodyLimit: config.maxFileBytes,
    // Never trust X-Forwarded-* from the network: the server binds loopback by default.
    trustProxy: false,
    // A reference is any text up to a cell's cap (the store takes no longer one), so PATCH by
    // reference must route one that long; Fastify's default of 100 characters refused most. Over
    // HTTP the 16 KB limit on URL and headers (client-error.ts) stops the longest ones first.
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    // A request the HTTP parser refuses (URL and headers over 16 KB, malformed) gets the same shape.
    clientErrorHandler: answerClientError,
    // Routing errors never reach the error handler; answer them in the same shape.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      void reply.code(400).send(errorBody('bad_request', routingErrorMessage(error.code)));
    },
  });

  addSecurityHeaders(app);
  addJsonDepthLimit(app, config.maxJsonDepth);
  app.setErrorHandler(clientErrorHandler);
  const consoleSide = registerConsoleServer(app, config, deps);
  await registerApi(app, config, deps, consoleSide);
  if (config.consoleDir) await serveConsole(app, config.consoleDir);
  notFoundHandler(app, config.consoleDir !== null);
  return app;
}

/** The console server's own endpoints beside the service's API: the team history, remembered mappings, the jobs it runs (CONSOLE_DB) and the pacing view. */
function registerConsoleServer(app: FastifyInstance, config: ServerConfig, deps: ApiDependencies): ConsoleSide {
  const store = new ConsoleStore(config.consoleDbPath);
  app.addHook('onClose', (_instance, done) => {
    store.close();
    done();
  });
  const disabled = new Set(config.disabledKeys);
  const known = sandboxKeys(config)
    .filter(({ key }) => !disabled.has(key))
    .map(({ key, workspace }) => ({ keyHash: hashKey(key), workspaceId: workspace }));
  const workspaceOf = workspaceIdentity({
    serverHeldKeyFor: config.upstreamUrl !== null && config.upstreamApiKey !== null ? new URL(config.upstreamUrl).host : null,
    sandboxWorkspace: config.upstreamUrl === null ? (key) => findWorkspace(known, key) : null,
    secret: store.secret('pasted-key-fingerprint'),
  });
  registerTeamHistory(app, { store, workspaceOf, userHeader: config.consoleUserHeader, keepMs: config.consoleKeepMs });
  registerRememberedMappings(app, { store, workspaceOf, userHeader: config.consoleUserHeader, keepMs: config.consoleKeepMs });
  // The key the server's jobs are sent with on its own: the upstream's (the proxy adds it), or a sandbox key of the workspace.
  const sandboxKeyOf = new Map(sandboxKeys(config).filter(({ key }) => !disabled.has(key)).reverse().map(({ key, workspace }) => [`sandbox:${workspace}`, key]));
  const serverHoldsKey = config.upstreamUrl !== null && config.upstreamApiKey !== null;
  // Only where the console's server runs jobs: otherwise its endpoints do not exist (404), so
  // nothing can make this server keep rows, start runners or hold a key.
  const hosts = !config.consoleRunsJobs ? null : registerServerJobHost(app, {
    consoleDbPath: config.consoleDbPath,
    store,
    workspaceOf,
    userHeader: config.consoleUserHeader,
    maxJobBytes: SERVER_JOB_MAX_BYTES,
    keepMs: config.consoleKeepMs,
    ownKey: (workspace) => (serverHoldsKey ? '' : config.upstreamUrl === null ? (sandboxKeyOf.get(workspace) ?? null) : null),
    ...deps.serverJobs,
  });
  const pacer = config.consolePacer ? new Pacer({ advertised: config.upstreamUrl === null ? sandboxLimits(config) : {} }) : null;
  registerPacing(app, pacer, workspaceOf, store, (workspace) => hosts?.jobsToSend(workspace) ?? []);
  return { observe: importObserver(store, workspaceOf), pacer, workspaceOf };
}

/** The limits the sandbox is set to, known to the pacer before the first answer. */
function sandboxLimits(config: ServerConfig) {
  return {
    general: { limit: Math.min(config.hourlyLimit, config.dailyLimit) },
    import_list: { limit: config.importLimit },
    import_file: { limit: config.importLimit },
    patch_id: { limit: config.patchLimit },
    patch_reference: { limit: config.patchLimit },
  };
}

/** The largest job one Send hands to the console's server: its rows as JSON (a 100,000-row file is about 20 MB). */
const SERVER_JOB_MAX_BYTES = 32 * 1024 * 1024;

/** The longest id or reference (decoded characters) one segment of a URL path may hold. */
export const MAX_PATH_PARAM_LENGTH = DEFAULT_TABLE_LIMITS.maxCellLength;

function routingErrorMessage(code: string): string {
  if (code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return `A part of the URL path is longer than ${formatCount(MAX_PATH_PARAM_LENGTH)} characters, the longest id or reference this service accepts.`;
  }
  if (code === 'FST_ERR_BAD_URL') return 'The URL could not be decoded; check its percent-encoding.';
  return 'The URL could not be matched to an endpoint.';
}

/**
 * Turns Fastify's own errors for bad client input (unparsable JSON, wrong content type, body too
 * large) into the `{errors:[…]}` body of DESIGN §3; anything else is a 500 with no internals.
 */
function clientErrorHandler(this: FastifyInstance, error: FastifyError, _request: unknown, reply: FastifyReply) {
  const status = error.statusCode ?? 500;
  if (status === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return reply.code(413).send(errorBody('too_large', 'The request body is larger than this service accepts.'));
  }
  // DESIGN §3 keeps 415 for files that are not spreadsheets; a body of the wrong type is a 400.
  if (status === 415 || error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return reply.code(400).send(errorBody('bad_request', 'This content type is not accepted here; send JSON (application/json) or a file as multipart/form-data.'));
  }
  if (status >= 400 && status < 500) {
    return reply.code(400).send(errorBody('bad_request', `The request could not be read: ${error.message}`));
  }
  this.log.error(error);
  return reply.code(500).send(errorBody('internal', 'The service hit an unexpected error; the request was not completed.'));
}
