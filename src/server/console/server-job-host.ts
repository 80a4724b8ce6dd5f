// Wires the jobs the console's server runs into the app: the job database beside CONSOLE_DB
// (its own file, laid out by jobs/storage/sqlite-storage.ts), one runner per workspace reaching
// /api/v1 in-process, the endpoints, the team history's copy of each job, and boot and close.
import type { FastifyInstance } from 'fastify';
import { jobDatabasePath, SqliteJobDatabase } from '../../jobs/storage/sqlite-storage';
import { teamReport } from '../../jobs/team-reporter';
import type { ConsoleStore } from './console-store';
import { sweepHourly } from './console-routes';
import { inProcessFetch } from './in-process-fetch';
import { JobHosts, type JobHostOptions } from './job-host';
import { registerServerJobs } from './server-job-routes';
import type { WorkspaceOf } from './workspace-identity';

export interface ServerJobHostOptions {
  consoleDbPath: string;
  store: ConsoleStore;
  workspaceOf: WorkspaceOf;
  userHeader: string | null;
  maxJobBytes: number;
  /** CONSOLE_KEEP_DAYS in milliseconds. */
  keepMs: number;
  ownKey: JobHostOptions['ownKey'];
  /** Where the runners' requests go; this app's own /api/v1 by default. The per-workspace pacer wraps it. */
  serviceFetch?: JobHostOptions['serviceFetch'];
  pollSpacing?: JobHostOptions['pollSpacing'];
}

export function registerServerJobHost(app: FastifyInstance, options: ServerJobHostOptions): JobHosts {
  const database = new SqliteJobDatabase(jobDatabasePath(options.consoleDbPath));
  const selfFetch = inProcessFetch(app);
  const { store } = options;
  const hosts = new JobHosts({
    database,
    serviceFetch: options.serviceFetch ?? (() => selfFetch),
    ownKey: options.ownKey,
    ...(options.pollSpacing ? { pollSpacing: options.pollSpacing } : {}),
    // The skipped rows never change: sent with a job's first copy after each start of its workspace's jobs only.
    jobChanged: (workspace, job, _jobs, payload, first) => void keepInTeamHistory(store, workspace, job, payload, first),
  });
  registerServerJobs(app, { hosts, workspaceOf: options.workspaceOf, userHeader: options.userHeader, maxJobBytes: options.maxJobBytes });
  // CONSOLE_KEEP_DAYS bounds these too: a job is forgotten that long after it finished.
  sweepHourly(app, () => database.forgetFinishedBefore(Date.now() - options.keepMs));
  app.addHook('onReady', async () => {
    await hosts.boot();
  });
  app.addHook('preClose', async () => {
    await hosts.close();
    database.close();
  });
  return hosts;
}

const WENT_OUT = new Set(['sending', 'accepted', 'rejected', 'unknown']);

/** The team history's copy of a job the server runs, and each chunk's rows once they went out. */
async function keepInTeamHistory(
  store: ConsoleStore,
  workspace: string,
  job: Parameters<typeof teamReport>[0],
  payload: (chunkId: number) => Promise<{ rowNumbers: number[]; body: Parameters<ConsoleStore['keepChunkRows']>[3]['body'] } | undefined>,
  withSkipped: boolean,
): Promise<void> {
  try {
    const sentBy = job.sentBy ?? null;
    const report = { ...teamReport(job, sentBy, withSkipped), runsOn: 'console-server' as const };
    if (!store.reportJob(workspace, job.id, report, sentBy, Date.now())) return;
    const kept = new Set(store.rowsKept(workspace, job.id));
    for (const chunk of job.chunks) {
      if (kept.has(chunk.id) || !WENT_OUT.has(chunk.state.status)) continue;
      const rows = await payload(chunk.id);
      if (rows) store.keepChunkRows(workspace, job.id, chunk.id, { rowNumbers: rows.rowNumbers, body: rows.body });
    }
  } catch {
    // The team history is a copy for others to read; the job goes on without it (the store closed at shutdown).
  }
}
