// GET /console.json, in every mode and with no key: what this server is to the console. The
// console asks it first and asks /sandbox.json only of a sandbox, so no page load meets a 404.
import type { FastifyInstance } from 'fastify';
import type { ConsoleInfo } from '../../contract/sandbox';
import type { ServerConfig } from '../config';

export function registerConsoleInfo(app: FastifyInstance, { upstreamUrl, upstreamApiKey, consoleRunsJobs }: ServerConfig): void {
  const info: ConsoleInfo = upstreamUrl
    ? { mode: 'proxy', service: new URL(upstreamUrl).host, key_held_by_server: upstreamApiKey !== null, runs_jobs: consoleRunsJobs }
    : { mode: 'sandbox', runs_jobs: consoleRunsJobs };
  app.get('/console.json', (): ConsoleInfo => info);
}
