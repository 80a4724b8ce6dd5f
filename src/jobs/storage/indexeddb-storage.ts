// Jobs kept in this browser's IndexedDB (the layout: indexeddb-schema.ts), and other tabs told
// of every write on a BroadcastChannel, so their job stores follow.
import type { IDBPDatabase } from 'idb';
import type { BatchOutcome, ChunkPayload, ImportJob } from '../import-job';
import { JOB_DATABASE, JobDatabaseConnection, type JobDb } from './indexeddb-schema';
import { JobNotFoundError, type JobStorage, type JobWrite } from './job-storage';

const CHANNEL = 'import-console-jobs';

export class IndexedDbJobStorage implements JobStorage {
  private readonly connection: JobDatabaseConnection;
  private readonly channel: BroadcastChannel | null;
  private readonly listeners = new Set<() => void>();

  /** `databaseName`: where the results worker saves the outcomes it reads (indexeddb-outcome-writer.ts). */
  constructor(readonly databaseName: string = JOB_DATABASE) {
    this.connection = new JobDatabaseConnection(databaseName, true);
    this.channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
    if (this.channel) {
      this.channel.onmessage = () => this.listeners.forEach((listener) => listener());
      // Node (tests) would otherwise stay alive for the channel; browsers have no unref.
      (this.channel as { unref?: () => void }).unref?.();
    }
  }

  async list(): Promise<ImportJob[]> {
    const jobs = await (await this.db()).getAllFromIndex('jobs', 'createdAt');
    return jobs.reverse();
  }

  async get(id: string): Promise<ImportJob | undefined> {
    return (await this.db()).get('jobs', id);
  }

  async create(job: ImportJob, payloads: readonly ChunkPayload[]): Promise<void> {
    const db = await this.db();
    // One chunk's rows per transaction, each in its own turn of the event loop, keeps each task
    // to the clone of one chunk. The job record goes last, so the runner never meets a chunk
    // without its rows; if a write fails, the rows already written go with it.
    try {
      for (const payload of payloads) {
        const tx = db.transaction('payloads', 'readwrite');
        await Promise.all([tx.store.put(payload), tx.done]);
      }
      await db.put('jobs', job);
    } catch (error) {
      await this.removePayloads(job.id).catch(() => undefined);
      throw error;
    }
    this.changed();
  }

  async update(id: string, change: (job: ImportJob) => JobWrite | null): Promise<ImportJob> {
    const db = await this.db();
    const tx = db.transaction(['jobs', 'payloads'], 'readwrite');
    const job = await tx.objectStore('jobs').get(id);
    if (!job) {
      tx.abort();
      await tx.done.catch(() => undefined);
      throw new JobNotFoundError(id);
    }
    const write = change(job);
    if (write === null) {
      await tx.done;
      return job;
    }
    const payloads = tx.objectStore('payloads');
    await Promise.all([
      tx.objectStore('jobs').put(write.job),
      ...(write.deletePayloads ?? []).map((chunkId) => payloads.delete([id, chunkId])),
      ...(write.putPayloads ?? []).map((payload) => payloads.put(payload)),
      tx.done,
    ]);
    this.changed();
    return write.job;
  }

  async remove(id: string): Promise<void> {
    const tx = (await this.db()).transaction(['jobs', 'payloads', 'outcomes'], 'readwrite');
    const payloadKeys = await tx.objectStore('payloads').index('jobId').getAllKeys(id);
    const outcomeKeys = await tx.objectStore('outcomes').index('jobId').getAllKeys(id);
    await Promise.all([
      tx.objectStore('jobs').delete(id),
      ...payloadKeys.map((key) => tx.objectStore('payloads').delete(key)),
      ...outcomeKeys.map((key) => tx.objectStore('outcomes').delete(key)),
      tx.done,
    ]);
    this.changed();
  }

  async payload(jobId: string, chunkId: number): Promise<ChunkPayload | undefined> {
    return (await this.db()).get('payloads', [jobId, chunkId]);
  }

  /** One outcome (up to 5,000 items) per cursor step keeps each copy out of IndexedDB in its own task. */
  async outcomes(jobId: string): Promise<BatchOutcome[]> {
    const outcomes: BatchOutcome[] = [];
    const tx = (await this.db()).transaction('outcomes');
    for await (const cursor of tx.store.index('jobId').iterate(jobId)) outcomes.push(cursor.value);
    await tx.done;
    return outcomes;
  }

  async outcome(jobId: string, batchId: string): Promise<BatchOutcome | undefined> {
    return (await this.db()).get('outcomes', [jobId, batchId]);
  }

  async saveOutcome(outcome: BatchOutcome): Promise<void> {
    await (await this.db()).put('outcomes', outcome);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.channel?.close();
    await this.connection.close();
  }

  private async removePayloads(jobId: string): Promise<void> {
    const tx = (await this.db()).transaction('payloads', 'readwrite');
    const keys = await tx.store.index('jobId').getAllKeys(jobId);
    await Promise.all([...keys.map((key) => tx.store.delete(key)), tx.done]);
  }

  private db(): Promise<IDBPDatabase<JobDb>> {
    return this.connection.get();
  }

  private changed(): void {
    this.channel?.postMessage('changed');
  }
}
