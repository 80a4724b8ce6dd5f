// The console's server runs import jobs (DESIGN §5 "Where a job runs"): per workspace, one job
// store over SQLite (jobs/storage/sqlite-storage.ts) and one runner of the engine (jobs/), the
// same machine, loops and HTTP module a browser runs, so a job goes on with every tab closed.
//
// The key a workspace's jobs are sent with:
//   - the server's own (UPSTREAM_API_KEY, or a sandbox key of the workspace): it sends on its own;
//   - a key pasted in a browser: held in memory only, from the Send that hands a job over (or a
//     request of a workspace with an unfinished job) until the workspace has no unfinished job,
//     never written anywhere; a browser that only reads its jobs leaves no key behind. After a restart its jobs wait with
//     WAITING_FOR_KEY on them until a request carrying the key comes (any of this workspace's
//     server-job endpoints), then go on.
// Boot resumes every unfinished job: the runner turns chunks a killed process left `sending` into
// `unknown` (the `interrupted` event: never resent silently), pending ones go on, each chunk with
// its Idempotency-Key (its job id and chunk id).
import { environmentManager, QueryClient } from '@tanstack/query-core';
import type { HttpDeps } from '../../api/http-client';
import { RateLimitBudget, sleep } from '../../api/rate-limit-budget';
import { fetchShipmentPage } from '../../api/shipments';
import type { BatchReader, ChunkPayload, ImportJob } from '../../jobs/import-job';
import { JobRunner } from '../../jobs/runner/job-runner';
import { JobStore } from '../../jobs/job-store';
import type { SqliteJobDatabase } from '../../jobs/storage/sqlite-storage';
import { digestBatch, headlineOf, readBatchBody } from '../../jobs/batch-digest';

export const WAITING_FOR_KEY =
  'Waiting for a browser holding this job’s API key: the console’s server keeps a pasted key in memory only, and it restarted. Open the console connected with that key and the job goes on.';

/** A workspace's jobs are closed (runner, store, what is remembered of them) when idle this long with nothing unfinished; its next request makes them again. */
export const HOST_IDLE_MS = 10 * 60_000;
const HOST_SWEEP_MS = 60_000;

/** The base URL of the service as the server's jobs name it: the console's own /api/v1, as a browser's do. */
export const SERVER_JOB_SERVICE_URL = '';

export interface JobHostOptions {
  database: SqliteJobDatabase;
  /**
   * The fetch one workspace's requests to the service go through (relative URLs under /api/v1).
   * The per-workspace pacer goes in front of it here.
   */
  serviceFetch: (workspace: string) => typeof fetch;
  /** The key the server sends with for the workspace on its own ('' when the proxy adds it); null: only a pasted key. */
  ownKey: (workspace: string) => string | null;
  /** Told after every change of one of the workspace's jobs (the team history keeps a copy); `first`: the first since its workspace's jobs were started. */
  jobChanged?: (workspace: string, job: ImportJob, jobs: readonly ImportJob[], payload: (chunkId: number) => Promise<ChunkPayload | undefined>, first: boolean) => void;
  now?: () => number;
  random?: () => number;
  /** The poll plan's spacing of one batch's polls (job-settings.ts by default; tests poll faster). */
  pollSpacing?: { spacingMs: number; jitterMs: number };
}

/** Batch bodies read in this thread, with the results worker's own pure reader. */
const reader: BatchReader = {
  headline: (body) => new Promise((resolve) => resolve(headlineOf(readBatchBody(body as ArrayBuffer, 'The import')))),
  digest: (body, rowNumbers) => new Promise((resolve) => resolve(digestBatch(readBatchBody(body as ArrayBuffer, 'The batch'), rowNumbers ?? []))),
};

/** Every workspace's jobs on this server. */
export class JobHosts {
  private readonly hosts = new Map<string, WorkspaceJobs>();
  private readonly client: QueryClient;
  private closed = false;
  private readonly sweep: ReturnType<typeof setInterval>;

  constructor(private readonly options: JobHostOptions) {
    // Query takes a process without `window` for a server and schedules no refetch: this one polls batches.
    environmentManager.setIsServer(() => false);
    this.client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    this.sweep = setInterval(() => void this.evictIdle(), HOST_SWEEP_MS);
    this.sweep.unref();
  }

  /** Starts every workspace that holds an unfinished job: what a (re)started server does first. */
  async boot(): Promise<void> {
    for (const workspace of this.options.database.workspacesWithUnfinishedJobs()) await this.host(workspace).holdWithoutKey();
  }

  /**
   * The workspace's jobs, as a request of it finds them. `key`: the Bearer key the request
   * carries; where the workspace's jobs need a pasted key it is kept (in memory) while they run.
   */
  async forRequest(workspace: string, key: string | null, { handsJob = false }: { handsJob?: boolean } = {}): Promise<WorkspaceJobs> {
    const host = this.host(workspace);
    // Where the server holds the key, a browser's requests carry none: its runner starts all the same.
    host.start();
    if (key !== null) await host.keyArrived(key, handsJob);
    return host;
  }

  host(workspace: string): WorkspaceJobs {
    if (this.closed) throw new Error('The console server’s jobs are closed.');
    let host = this.hosts.get(workspace);
    if (!host) {
      host = new WorkspaceJobs(workspace, this.options, this.client);
      this.hosts.set(workspace, host);
    }
    host.touch();
    return host;
  }

  /**
   * The workspace's jobs this server is sending: running, with chunks still to go out (each waits
   * its turn even before its first import reaches the pacer). None where its jobs are not started.
   */
  jobsToSend(workspace: string): string[] {
    const snapshot = this.hosts.get(workspace)?.store.getSnapshot();
    if (snapshot?.status !== 'ready') return [];
    return snapshot.jobs
      .filter((job) => job.runState === 'running' && job.chunks.some((chunk) => chunk.state.status === 'pending' || chunk.state.status === 'sending'))
      .map((job) => job.id);
  }

  /** Closes every workspace's jobs idle for HOST_IDLE_MS with nothing unfinished (the sweep's turn, each minute). */
  async evictIdle(): Promise<void> {
    const now = (this.options.now ?? Date.now)();
    const idle = [...this.hosts].filter(([, host]) => host.idleSince(now) >= HOST_IDLE_MS);
    for (const [workspace] of idle) this.hosts.delete(workspace);
    await Promise.all(idle.map(([, host]) => host.close()));
  }

  /** Stops every runner (a request under way ends; its chunk stays `sending` and the next boot settles it). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweep);
    await Promise.all([...this.hosts.values()].map((host) => host.close()));
    this.hosts.clear();
    this.client.clear();
  }
}

export class WorkspaceJobs {
  readonly store: JobStore;
  private readonly runner: JobRunner;
  private readonly ownKey: string | null;
  private pastedKey: string | null = null;
  private readonly targetListeners = new Set<() => void>();
  private stopRunner: (() => void) | null = null;
  /** Per job, the version last told to jobChanged: only jobs the store still holds. */
  private readonly reported = new Map<string, number>();
  private unfinished = 0;
  private lastActive: number;
  private readonly unsubscribe: () => void;

  constructor(
    readonly workspace: string,
    private readonly options: JobHostOptions,
    private readonly client: QueryClient,
  ) {
    const now = options.now ?? Date.now;
    const random = options.random ?? Math.random;
    this.ownKey = options.ownKey(workspace);
    this.lastActive = now();
    this.store = new JobStore(options.database.storage(workspace), now);
    const budget = new RateLimitBudget();
    const http: HttpDeps = { fetch: options.serviceFetch(workspace), budget, sleep, random, now };
    this.runner = new JobRunner({
      store: this.store,
      budget,
      getTarget: () => {
        const apiKey = this.ownKey ?? this.pastedKey;
        return apiKey === null ? null : { baseUrl: SERVER_JOB_SERVICE_URL, apiKey };
      },
      subscribeTarget: (listener) => {
        this.targetListeners.add(listener);
        return () => this.targetListeners.delete(listener);
      },
      locks: null,
      // The console's own /api/v1: every import carries its chunk's Idempotency-Key.
      pageOrigin: 'http://console.internal',
      now,
      random,
      notify: () => undefined,
      http,
      ...(options.pollSpacing ? { pollSpacing: options.pollSpacing } : {}),
      shipmentPage: (target, query, signal) => fetchShipmentPage(target, { batchId: query.batch_id, page: query.page, pageSize: query.page_size }, signal, http),
    });
    this.unsubscribe = this.store.subscribe(() => this.changed());
  }

  /** A request of the workspace came. */
  touch(): void {
    this.lastActive = (this.options.now ?? Date.now)();
  }

  /** How long nothing asked for these jobs and none changed; 0 while one is unfinished (or the store is not read yet). */
  idleSince(now: number): number {
    const { status, jobs } = this.store.getSnapshot();
    if (status !== 'ready' || jobs.some((job) => job.finishedAt === null)) return 0;
    return now - this.lastActive;
  }

  /** Whether jobs can be sent now: the server's own key, or a pasted key a request brought. */
  hasKey(): boolean {
    return this.ownKey !== null || this.pastedKey !== null;
  }

  /** Starts the runner (once); without a key, running jobs wait with WAITING_FOR_KEY on them. */
  async holdWithoutKey(): Promise<void> {
    this.start();
    if (this.hasKey()) return;
    for (const job of await this.store.listJobs()) {
      if (job.runState === 'running' && job.finishedAt === null) {
        await this.store.apply(job.id, { type: 'hold', reason: WAITING_FOR_KEY, at: (this.options.now ?? Date.now)() }).catch(() => undefined);
      }
    }
  }

  /**
   * A request carried `key`: where only a pasted key sends, it is kept while jobs run (or for the
   * job this request hands over), and jobs waiting for it go on.
   */
  async keyArrived(key: string, handsJob = false): Promise<void> {
    this.start();
    if (this.ownKey !== null || key === '') return;
    if (!handsJob && !(await this.store.listJobs()).some((job) => job.finishedAt === null)) return;
    const arrived = this.pastedKey !== key;
    this.pastedKey = key;
    if (arrived) this.targetListeners.forEach((listener) => listener());
    for (const job of await this.store.listJobs()) {
      if (job.runState === 'paused' && job.pausedReason === WAITING_FOR_KEY) await this.store.resumeJob(job.id).catch(() => undefined);
    }
  }

  start(): void {
    if (this.stopRunner) return;
    this.stopRunner = this.runner.start(reader, this.client);
  }

  async close(): Promise<void> {
    this.unsubscribe();
    this.stopRunner?.();
    this.stopRunner = null;
    this.pastedKey = null;
    await this.store.close();
  }

  /** After a change: the team history hears of changed jobs; a pasted key is forgotten once no job needs it. */
  private changed(): void {
    const { status, jobs } = this.store.getSnapshot();
    if (status !== 'ready') return;
    this.touch();
    for (const job of jobs) {
      const version = this.reported.get(job.id);
      if (version === job.updatedAt) continue;
      this.reported.set(job.id, job.updatedAt);
      this.options.jobChanged?.(this.workspace, job, jobs, (chunkId) => this.store.getPayload(job.id, chunkId), version === undefined);
    }
    if (this.reported.size > jobs.length) {
      const held = new Set(jobs.map((job) => job.id));
      for (const id of this.reported.keys()) if (!held.has(id)) this.reported.delete(id);
    }
    // Forgotten when the last unfinished job finishes (or goes), not before one is made.
    const unfinished = jobs.filter((job) => job.finishedAt === null).length;
    if (this.unfinished > 0 && unfinished === 0) this.pastedKey = null;
    this.unfinished = unfinished;
  }
}
