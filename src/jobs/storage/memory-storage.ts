// Jobs kept in memory: the storage of the engine's tests and of a run in Node. Every value is
// copied on the way in and out, as IndexedDB copies it, so no caller shares an object with the
// storage. Stores that share one MemoryJobStorage see each other's writes, as tabs do.
import type { BatchOutcome, ChunkPayload, ImportJob } from '../import-job';
import { JobNotFoundError, type JobStorage, type JobWrite } from './job-storage';

const payloadKey = (jobId: string, chunkId: number) => `${jobId}\u0000${chunkId}`;
const outcomeKey = (jobId: string, batchId: string) => `${jobId}\u0000${batchId}`;

export class MemoryJobStorage implements JobStorage {
  private readonly jobs = new Map<string, ImportJob>();
  private readonly payloads = new Map<string, ChunkPayload>();
  private readonly outcomeItems = new Map<string, BatchOutcome>();
  private readonly listeners = new Set<() => void>();

  list(): Promise<ImportJob[]> {
    const jobs = [...this.jobs.values()].sort((a, b) => b.createdAt - a.createdAt);
    return Promise.resolve(jobs.map((job) => structuredClone(job)));
  }

  get(id: string): Promise<ImportJob | undefined> {
    return Promise.resolve(copy(this.jobs.get(id)));
  }

  create(job: ImportJob, payloads: readonly ChunkPayload[]): Promise<void> {
    return settle(() => {
      // Cloned before anything is kept: a value that cannot be cloned leaves nothing behind.
      const copies = payloads.map((payload) => structuredClone(payload));
      const record = structuredClone(job);
      for (const payload of copies) this.payloads.set(payloadKey(payload.jobId, payload.chunkId), payload);
      this.jobs.set(record.id, record);
      this.changed();
    });
  }

  update(id: string, change: (job: ImportJob) => JobWrite | null): Promise<ImportJob> {
    return settle(() => {
      const stored = this.jobs.get(id);
      if (!stored) throw new JobNotFoundError(id);
      const write = change(structuredClone(stored));
      if (write === null) return structuredClone(stored);
      const record = structuredClone(write.job);
      const putPayloads = (write.putPayloads ?? []).map((payload) => structuredClone(payload));
      for (const chunkId of write.deletePayloads ?? []) this.payloads.delete(payloadKey(id, chunkId));
      for (const payload of putPayloads) this.payloads.set(payloadKey(payload.jobId, payload.chunkId), payload);
      this.jobs.set(id, record);
      this.changed();
      return structuredClone(record);
    });
  }

  remove(id: string): Promise<void> {
    this.jobs.delete(id);
    for (const map of [this.payloads, this.outcomeItems]) {
      for (const key of map.keys()) if (key.startsWith(`${id}\u0000`)) map.delete(key);
    }
    this.changed();
    return Promise.resolve();
  }

  payload(jobId: string, chunkId: number): Promise<ChunkPayload | undefined> {
    return Promise.resolve(copy(this.payloads.get(payloadKey(jobId, chunkId))));
  }

  outcomes(jobId: string): Promise<BatchOutcome[]> {
    return Promise.resolve([...this.outcomeItems.values()].filter((outcome) => outcome.jobId === jobId).map((outcome) => structuredClone(outcome)));
  }

  outcome(jobId: string, batchId: string): Promise<BatchOutcome | undefined> {
    return Promise.resolve(copy(this.outcomeItems.get(outcomeKey(jobId, batchId))));
  }

  saveOutcome(outcome: BatchOutcome): Promise<void> {
    this.outcomeItems.set(outcomeKey(outcome.jobId, outcome.batchId), structuredClone(outcome));
    return Promise.resolve();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): Promise<void> {
    this.listeners.clear();
    return Promise.resolve();
  }

  private changed(): void {
    this.listeners.forEach((listener) => listener());
  }
}

/** A failure rejects, as IndexedDB's does, rather than throwing at the caller. */
const settle = <T,>(work: () => T): Promise<T> => new Promise((resolve) => resolve(work()));

const copy = <T,>(value: T | undefined): T | undefined => (value === undefined ? undefined : structuredClone(value));
