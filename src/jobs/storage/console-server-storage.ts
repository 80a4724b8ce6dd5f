// The jobs the console's server runs, seen from a browser (api/server-jobs.ts): what Send hands
// over and what every browser of the workspace watches. The server applies every event with
// the same machine (applyEvent); this browser never sends or polls these jobs. While someone
// listens, the list is polled through a TanStack Query observer every few seconds, which goes on
// by itself after the server or the network comes back (in a hidden tab only while a job waits to
// notify its finish); each answer that differs tells the job store. RoutedJobStorage (routed-storage.ts) puts these beside the browser's own jobs.
import { focusManager, QueryClient, QueryObserver } from '@tanstack/query-core';
import type { ApiTarget } from '../../api/http-client';
import {
  createServerJob,
  decideServerJob,
  deleteServerJob,
  getServerJob,
  listServerJobs,
  serverJobOutcome,
  serverJobOutcomes,
  serverJobPayload,
} from '../../api/server-jobs';
import type { ServerJobDecision } from '../../contract/server-jobs';
import type { BatchOutcome, ChunkPayload, ImportJob } from '../import-job';
import type { JobEvent } from '../job-machine';
import type { JobStorage, JobWrite } from './job-storage';

/** How often a watching browser reads the server's jobs. */
export const SERVER_JOBS_POLL_MS = 2_000;

export interface ConsoleServerStorageDeps {
  /** The connection, when the console's server runs its jobs; null otherwise (then there are none). */
  target: () => Promise<ApiTarget | null>;
  /** Who sends: the name typed at Connect (a single-sign-on header wins on the server). */
  sentBy: () => string | null;
  /** Told of each job this browser handed over, once the server has it. */
  handedOver?: (id: string) => void;
  pollMs?: number;
}

const asJob = (job: unknown) => job as ImportJob;

/** A job shown that is to say it finished (server-job-finish.ts): a hidden tab keeps reading for it. */
const awaitsNotification = (jobs: readonly ImportJob[] | undefined) => jobs?.some((job) => job.finishedAt === null && job.notify) ?? false;

export class ConsoleServerJobStorage implements JobStorage {
  private known = new Map<string, ImportJob>();
  private readonly listeners = new Set<() => void>();
  private readonly client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  private observer: QueryObserver<ImportJob[]> | null = null;
  private stopObserving: (() => void) | null = null;

  constructor(private readonly deps: ConsoleServerStorageDeps) {
    // Follows the tab's focus: the list is read again as a hidden tab comes back.
    this.client.mount();
  }

  /** Whether the job is one the server runs (as last read). */
  holds(id: string): boolean {
    return this.known.has(id);
  }

  /** The jobs as last read: what a list shows while the server cannot be reached. */
  lastKnown(): ImportJob[] {
    return [...this.known.values()];
  }

  async list(): Promise<ImportJob[]> {
    const target = await this.deps.target();
    if (!target) return [];
    const jobs = await this.client.fetchQuery({ ...this.listQuery(target.baseUrl), staleTime: (this.deps.pollMs ?? SERVER_JOBS_POLL_MS) / 2 });
    this.remember(jobs);
    return jobs;
  }

  async get(id: string): Promise<ImportJob | undefined> {
    const target = await this.deps.target();
    if (!target) return undefined;
    const job = await getServerJob(target, id);
    if (job === null) {
      this.known.delete(id);
      return undefined;
    }
    this.known.set(id, asJob(job));
    return asJob(job);
  }

  async create(job: ImportJob, payloads: readonly ChunkPayload[]): Promise<void> {
    const target = await this.deps.target();
    if (!target) throw new Error('The console’s server does not run jobs for this connection.');
    const made = await createServerJob(target, {
      id: job.id,
      createdAt: job.createdAt,
      source: job.source,
      endpoint: job.endpoint,
      headers: job.headers,
      chunkRows: job.chunkRows,
      rowsRead: job.rowsRead,
      numbering: job.numbering,
      skippedBeforeSend: job.skippedBeforeSend,
      notify: job.notify,
      sentBy: this.deps.sentBy(),
      chunks: payloads.map((payload, i) => ({ rowNumbers: payload.rowNumbers, body: payload.body, withoutReference: job.chunks[i]?.withoutReference ?? 0, ...(payload.foreseen === undefined ? {} : { foreseen: payload.foreseen }) })),
    });
    this.known.set(job.id, asJob(made));
    this.deps.handedOver?.(job.id);
    void this.client.invalidateQueries({ queryKey: ['server-jobs'] });
  }

  update(id: string, _change: (job: ImportJob) => JobWrite | null): Promise<ImportJob> {
    return Promise.reject(new Error(`Import job ${id} runs on the console’s server: it changes there, by its events.`));
  }

  async applyEvent(id: string, event: JobEvent): Promise<{ job: ImportJob; refused: string | null } | undefined> {
    if (!this.known.has(id)) return undefined;
    const target = await this.deps.target();
    if (!target) throw new Error('Connect to the console’s server again to change this job.');
    const answer = await decideServerJob(target, id, decisionOf(event));
    const job = asJob(answer.job);
    this.known.set(id, job);
    void this.client.invalidateQueries({ queryKey: ['server-jobs'] });
    return { job, refused: answer.refused };
  }

  async remove(id: string): Promise<void> {
    const target = await this.deps.target();
    if (!target) throw new Error('Connect to the console’s server again to delete this job.');
    await deleteServerJob(target, id);
    this.known.delete(id);
    void this.client.invalidateQueries({ queryKey: ['server-jobs'] });
  }

  async payload(jobId: string, chunkId: number): Promise<ChunkPayload | undefined> {
    const target = await this.deps.target();
    return target ? serverJobPayload(target, jobId, chunkId) : undefined;
  }

  async outcomes(jobId: string): Promise<BatchOutcome[]> {
    const target = await this.deps.target();
    return target ? ((await serverJobOutcomes(target, jobId)) as BatchOutcome[]) : [];
  }

  async outcome(jobId: string, batchId: string): Promise<BatchOutcome | undefined> {
    const target = await this.deps.target();
    return target ? ((await serverJobOutcome(target, jobId, batchId)) as BatchOutcome | undefined) : undefined;
  }

  saveOutcome(outcome: BatchOutcome): Promise<void> {
    return Promise.reject(new Error(`Import job ${outcome.jobId} runs on the console’s server: its outcomes are saved there.`));
  }

  /** The connection changed: the list is read again with the new one, and polled with it. */
  targetChanged(): void {
    this.known.clear();
    this.client.removeQueries({ queryKey: ['server-jobs'] });
    this.unobserve();
    if (this.listeners.size > 0) void this.observe();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) void this.observe();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.unobserve();
    };
  }

  close(): Promise<void> {
    this.listeners.clear();
    this.unobserve();
    this.client.clear();
    return Promise.resolve();
  }

  /** Keyed by the service, never the API key; each read uses the connection as it is then. */
  private listQuery(baseUrl: string) {
    return {
      queryKey: ['server-jobs', baseUrl],
      queryFn: async ({ signal }: { signal: AbortSignal }): Promise<ImportJob[]> => {
        const target = await this.deps.target();
        return target ? (await listServerJobs(target, signal)).data.map(asJob) : [];
      },
    };
  }

  private async observe(): Promise<void> {
    const target = await this.deps.target();
    if (!target || this.observer || this.listeners.size === 0) return;
    const observer = new QueryObserver<ImportJob[]>(this.client, {
      ...this.listQuery(target.baseUrl),
      // A hidden tab reads on only while a job it shows waits to say it finished.
      refetchInterval: (query) => (focusManager.isFocused() || awaitsNotification(query.state.data) ? (this.deps.pollMs ?? SERVER_JOBS_POLL_MS) : false),
      refetchIntervalInBackground: true,
    });
    this.observer = observer;
    let last: ImportJob[] | undefined;
    this.stopObserving = observer.subscribe((result) => {
      // Structural sharing keeps the same array while nothing changed.
      if (result.data === undefined || result.data === last) return;
      last = result.data;
      this.remember(result.data);
      this.listeners.forEach((listener) => listener());
    });
  }

  private unobserve(): void {
    this.stopObserving?.();
    this.stopObserving = null;
    this.observer = null;
  }

  private remember(jobs: readonly ImportJob[]): void {
    this.known = new Map(jobs.map((job) => [job.id, job]));
  }
}

/** The user's events, as the server takes them; the runner's own events are never this browser's to make. */
function decisionOf(event: JobEvent): ServerJobDecision {
  switch (event.type) {
    case 'cancel':
    case 'resume':
      return { type: event.type };
    case 'resend':
    case 'skip':
      return { type: event.type, chunkId: event.chunkId };
    case 'notify':
      return { type: 'notify', on: event.on };
    case 'content-hash':
      return { type: 'content-hash', hash: event.hash };
    default:
      throw new Error(`The console’s server sends this job: a ${event.type} event is not this browser’s to make.`);
  }
}
