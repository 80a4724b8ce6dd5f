// Where import jobs are kept, behind one narrow interface: the job store (job-store.ts) and the
// runner see nothing else. Adapters: IndexedDB in the browser (indexeddb-storage.ts), memory
// for tests and Node (memory-storage.ts). A job record is small (no row data); each chunk's rows
// (its payload) and each finished batch's items (its outcome) are kept apart, read only when
// sending, polling or showing results.
import type { BatchOutcome, ChunkPayload, ImportJob } from '../import-job';
import type { JobEvent } from '../job-machine';

/** One job as `update` writes it, with the payloads its change makes or drops (a split), in the same transaction. */
export interface JobWrite {
  job: ImportJob;
  putPayloads?: readonly ChunkPayload[];
  deletePayloads?: readonly number[];
}

export interface JobStorage {
  /** Every job, newest first. */
  list(): Promise<ImportJob[]>;
  get(id: string): Promise<ImportJob | undefined>;
  /** Keeps a new job with its chunks' rows: the rows first, the record last; a failure leaves nothing behind. */
  create(job: ImportJob, payloads: readonly ChunkPayload[]): Promise<void>;
  /**
   * Reads, changes and writes one job atomically: `change` gets the job as stored and returns
   * what to write, or null to write nothing. Returns the job as stored afterwards; rejects with
   * JobNotFoundError when there is no such job.
   */
  update(id: string, change: (job: ImportJob) => JobWrite | null): Promise<ImportJob>;
  /** The job, its payloads and its outcomes. */
  remove(id: string): Promise<void>;
  payload(jobId: string, chunkId: number): Promise<ChunkPayload | undefined>;
  /** Every finished batch's outcome of the job. */
  outcomes(jobId: string): Promise<BatchOutcome[]>;
  outcome(jobId: string, batchId: string): Promise<BatchOutcome | undefined>;
  saveOutcome(outcome: BatchOutcome): Promise<void>;
  /**
   * Where another runs the job (the console's server), the event is applied there, by the same
   * machine: the job afterwards and why it was refused. Undefined: the job is kept here, and the
   * caller applies the event through `update`.
   */
  applyEvent?(id: string, event: JobEvent): Promise<{ job: ImportJob; refused: string | null } | undefined>;
  /** Called when the jobs changed through another holder of the same storage (another tab). */
  subscribe(listener: () => void): () => void;
  close(): Promise<void>;
}

export class JobNotFoundError extends Error {
  override name = 'JobNotFoundError';
  constructor(id: string) {
    super(`There is no import job ${id} in this browser.`);
  }
}
