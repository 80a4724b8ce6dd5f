// The browser's jobs and the console server's, behind the one interface the job store and the
// pages see: a new job goes to the console's server when it runs this connection's jobs
// (`handsOff`), else it stays in this browser; every other call goes to whichever holds the job.
// The list puts both together, newest first; while the server cannot be reached it shows the
// server's jobs as last read.
import type { BatchOutcome, ChunkPayload, ImportJob } from '../import-job';
import type { JobEvent } from '../job-machine';
import type { ConsoleServerJobStorage } from './console-server-storage';
import type { JobStorage, JobWrite } from './job-storage';

export class RoutedJobStorage implements JobStorage {
  constructor(
    private readonly local: JobStorage,
    private readonly server: ConsoleServerJobStorage,
    private readonly handsOff: () => Promise<boolean>,
  ) {}

  async list(): Promise<ImportJob[]> {
    const [mine, theirs] = await Promise.all([this.local.list(), this.server.list().catch(() => this.server.lastKnown())]);
    return [...mine, ...theirs].sort((a, b) => b.createdAt - a.createdAt);
  }

  async get(id: string): Promise<ImportJob | undefined> {
    if (this.server.holds(id)) return this.server.get(id);
    return (await this.local.get(id)) ?? this.server.get(id).catch(() => undefined);
  }

  async create(job: ImportJob, payloads: readonly ChunkPayload[]): Promise<void> {
    if (await this.handsOff()) return this.server.create(job, payloads);
    return this.local.create(job, payloads);
  }

  update(id: string, change: (job: ImportJob) => JobWrite | null): Promise<ImportJob> {
    return this.server.holds(id) ? this.server.update(id, change) : this.local.update(id, change);
  }

  applyEvent(id: string, event: JobEvent): Promise<{ job: ImportJob; refused: string | null } | undefined> {
    return this.server.applyEvent(id, event);
  }

  remove(id: string): Promise<void> {
    return this.server.holds(id) ? this.server.remove(id) : this.local.remove(id);
  }

  payload(jobId: string, chunkId: number): Promise<ChunkPayload | undefined> {
    return this.server.holds(jobId) ? this.server.payload(jobId, chunkId) : this.local.payload(jobId, chunkId);
  }

  outcomes(jobId: string): Promise<BatchOutcome[]> {
    return this.server.holds(jobId) ? this.server.outcomes(jobId) : this.local.outcomes(jobId);
  }

  outcome(jobId: string, batchId: string): Promise<BatchOutcome | undefined> {
    return this.server.holds(jobId) ? this.server.outcome(jobId, batchId) : this.local.outcome(jobId, batchId);
  }

  saveOutcome(outcome: BatchOutcome): Promise<void> {
    return this.local.saveOutcome(outcome);
  }

  subscribe(listener: () => void): () => void {
    const unsubscribe = [this.local.subscribe(listener), this.server.subscribe(listener)];
    return () => unsubscribe.forEach((stop) => stop());
  }

  async close(): Promise<void> {
    await Promise.all([this.local.close(), this.server.close()]);
  }
}
