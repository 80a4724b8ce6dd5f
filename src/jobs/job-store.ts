// The import jobs in IndexedDB, and the only code that writes them (DESIGN §5). Pages read the
// jobs through useSyncExternalStore(store.subscribe, store.getSnapshot); every write is a
// read-modify-write in one IndexedDB transaction, then other tabs are told on a BroadcastChannel
// so their snapshot follows. A write of one job puts it in this tab's snapshot as written.
//
//   createJob(newJob)            → ImportJob   one call from normalized rows, CSV chunks or JSON requests
//   getJob(id) / listJobs()                    from IndexedDB; getSnapshot().jobs is the same, newest first
//   getPayload(jobId, chunkId)   → rows as sent (CSV or JSON) and their file row numbers
//   getOutcomes(jobId)           → every finished batch's items, for results and fix & retry
//   getOutcome(jobId, batchId)   → one batch's items (a results grid that grows batch by batch)
//   apply(id, event)             → the job after one event of job-machine.ts (or why it was refused),
//                                atomic per job: the runner's and the submit loop's only write
//   cancelJob(id)                stops sending (accepted batches still finish); resumeJob(id)
//   deleteJob(id)                the job, its payloads and outcomes
//   setNotify(id, on)            opt in to a notification when it finishes in a hidden tab
//   resendChunk / skipChunk      the user's answer to an `unknown` chunk
//   splitChunk(…, pieceRows?)    a chunk refused for a cap → smaller pending chunks, same rows
//   saveOutcome                  a finished batch's compact items
//   databaseName                 the database the results worker saves polled outcomes into
//
// One write comes from elsewhere: a polled batch's outcome is saved by the results worker that
// read it (workers/results-outcomes.ts), so its 5,000 items are never cloned on the page's thread.
// It writes only into a database this store laid out, only the `outcomes` store (key [jobId,
// batchId], a BatchOutcome), and only while the job record exists (same transaction).
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { BatchOutcome, ChunkPayload, ImportJob, NewJob } from './import-job';
import { isJobFinished, type JobEvent, madeJob, transition } from './job-machine';

interface JobDb extends DBSchema {
  jobs: { key: string; value: ImportJob; indexes: { createdAt: number } };
  payloads: { key: [string, number]; value: ChunkPayload; indexes: { jobId: string } };
  outcomes: { key: [string, string]; value: BatchOutcome; indexes: { jobId: string } };
}

export interface JobsSnapshot {
  status: 'loading' | 'ready' | 'unavailable';
  /** Newest first. */
  jobs: readonly ImportJob[];
  /** Why jobs cannot be kept (private mode without IndexedDB…), as a sentence. */
  error: string | null;
}

const DB_NAME = 'import-console-jobs';
const CHANNEL = 'import-console-jobs';

export class JobNotFoundError extends Error {
  override name = 'JobNotFoundError';
  constructor(id: string) {
    super(`There is no import job ${id} in this browser.`);
  }
}

/** A job after an event: as stored afterwards, and why the event was refused (null: it applied). */
export interface Applied {
  job: ImportJob;
  refused: string | null;
}

export class JobStore {
  private snapshot: JobsSnapshot = { status: 'loading', jobs: [], error: null };
  private readonly listeners = new Set<() => void>();
  private dbPromise: Promise<IDBPDatabase<JobDb>> | null = null;
  private readonly channel: BroadcastChannel | null;
  private reloading: Promise<void> | null = null;
  private reloadAgain = false;

  constructor(
    private readonly dbName: string = DB_NAME,
    private readonly now: () => number = Date.now,
  ) {
    this.channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
    if (this.channel) {
      this.channel.onmessage = () => void this.reload();
      // Node (tests) would otherwise stay alive for the channel; browsers have no unref.
      (this.channel as { unref?: () => void }).unref?.();
    }
  }

  getSnapshot = (): JobsSnapshot => this.snapshot;

  /** The IndexedDB database this store keeps its jobs in: the results worker saves outcomes there. */
  get databaseName(): string {
    return this.dbName;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.snapshot.status === 'loading') void this.reload();
    return () => this.listeners.delete(listener);
  };

  /** Re-reads every job record (they hold no row data, so this stays small). */
  reload(): Promise<void> {
    if (this.reloading) {
      this.reloadAgain = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      do {
        this.reloadAgain = false;
        try {
          const jobs = await this.listJobs();
          this.set({ status: 'ready', jobs, error: null });
        } catch (error) {
          this.set({ status: 'unavailable', jobs: [], error: `Import jobs cannot be kept in this browser: ${describe(error)}` });
        }
      } while (this.reloadAgain);
      this.reloading = null;
    })();
    return this.reloading;
  }

  async createJob(input: NewJob): Promise<ImportJob> {
    // Its failure only leaves the hash unknown; observed now, so a job refused below leaves no unhandled rejection.
    input.contentHash?.catch(() => undefined);
    // Loaded when a job is made, not with the shell that runs jobs: papaparse stays off first paint.
    const { cutIntoChunks } = await import('./chunking');
    const cut = cutIntoChunks(input.rows, input.chunkRows);
    const job = madeJob(
      {
        id: crypto.randomUUID(),
        at: this.now(),
        source: input.source,
        endpoint: input.rows.format === 'json' ? 'list' : 'file',
        headers: input.rows.format === 'json' ? [] : input.rows.headers,
        chunkRows: input.chunkRows,
        serviceUrl: input.serviceUrl,
        rowsRead: input.rowsRead,
        skippedBeforeSend: input.skipped,
        notify: input.notify ?? false,
      },
      cut,
    );
    const { id } = job;
    const db = await this.db();
    // One chunk's rows per transaction, each in its own turn of the event loop: one transaction
    // of every chunk held the page's thread for the clone of all of them (100,000 rows: the
    // longest task of Send). The job record goes last, so the runner never meets a chunk without
    // its rows; if a write fails, the rows already written go with it.
    try {
      for (const [index, chunk] of cut.entries()) {
        const tx = db.transaction('payloads', 'readwrite');
        await Promise.all([tx.store.put({ jobId: id, chunkId: index, rowNumbers: chunk.rowNumbers, body: chunk.body }), tx.done]);
      }
      await db.put('jobs', job);
    } catch (error) {
      await this.deletePayloads(id).catch(() => undefined);
      throw error;
    }
    this.changed();
    if (input.contentHash && job.source.kind === 'file') void this.recordContentHash(id, input.contentHash);
    return job;
  }

  private async deletePayloads(jobId: string): Promise<void> {
    const tx = (await this.db()).transaction('payloads', 'readwrite');
    const keys = await tx.store.index('jobId').getAllKeys(jobId);
    await Promise.all([...keys.map((key) => tx.store.delete(key)), tx.done]);
  }

  /**
   * Adds the source file's SHA-256 to the job once the import worker has it (Send does not wait
   * for it). A hash that never comes (the worker stopped) leaves it unknown, as History says.
   */
  private async recordContentHash(id: string, hash: Promise<string>): Promise<void> {
    const contentHash = await hash.catch(() => null);
    if (contentHash === null) return;
    await this.apply(id, { type: 'content-hash', hash: contentHash, at: this.now() }).catch(() => undefined); // deleted meanwhile
  }

  async getJob(id: string): Promise<ImportJob | undefined> {
    return (await this.db()).get('jobs', id);
  }

  /** Every job, newest first. */
  async listJobs(): Promise<ImportJob[]> {
    const jobs = await (await this.db()).getAllFromIndex('jobs', 'createdAt');
    return jobs.reverse();
  }

  async getPayload(jobId: string, chunkId: number): Promise<ChunkPayload | undefined> {
    return (await this.db()).get('payloads', [jobId, chunkId]);
  }

  /**
   * One outcome (up to 5,000 items) per cursor step, so each is copied out of IndexedDB in its
   * own task: a getAll of 100,000 items held the page's thread for hundreds of milliseconds.
   */
  async getOutcomes(jobId: string): Promise<BatchOutcome[]> {
    const outcomes: BatchOutcome[] = [];
    const tx = (await this.db()).transaction('outcomes');
    for await (const cursor of tx.store.index('jobId').iterate(jobId)) outcomes.push(cursor.value);
    await tx.done;
    return outcomes;
  }

  /** One finished batch's outcome: what a grid that already holds the others needs. */
  async getOutcome(jobId: string, batchId: string): Promise<BatchOutcome | undefined> {
    return (await this.db()).get('outcomes', [jobId, batchId]);
  }

  /**
   * Applies one event to one job atomically (job-machine.ts): the job as stored afterwards, and
   * the sentence why the event was refused (then nothing is written, nothing broadcast).
   */
  async apply(id: string, event: JobEvent): Promise<Applied> {
    let refused: string | null = null;
    const job = await this.write(id, (stored) => {
      const next = transition(stored, event);
      refused = next.refused;
      return next.job;
    });
    return { job, refused };
  }

  private async applied(id: string, event: JobEvent): Promise<ImportJob> {
    return (await this.apply(id, event)).job;
  }

  /**
   * Writes a job as `change` leaves it (false: nothing changed), then marks it finished when it
   * has no work left: test fixtures only. The engine changes jobs by events alone (apply).
   */
  updateJob(id: string, change: (job: ImportJob) => boolean | void): Promise<ImportJob> {
    return this.write(id, (job) => {
      if (change(job) === false) return null;
      job.updatedAt = this.now();
      if (job.finishedAt === null && isJobFinished(job)) {
        job.finishedAt = job.updatedAt;
        if (job.runState !== 'cancelled') job.runState = 'done';
      }
      return job;
    });
  }

  /** Read-modify-write of one job in one transaction; `change` returns the job to store, or null for no write. */
  private async write(id: string, change: (job: ImportJob) => ImportJob | null): Promise<ImportJob> {
    const db = await this.db();
    const tx = db.transaction('jobs', 'readwrite');
    const job = await tx.store.get(id);
    if (!job) {
      tx.abort();
      await tx.done.catch(() => undefined);
      throw new JobNotFoundError(id);
    }
    const next = change(job);
    if (next === null) {
      await tx.done;
      return job;
    }
    await Promise.all([tx.store.put(next), tx.done]);
    this.changedOne(next);
    return next;
  }

  /** Stops sending: pending chunks are skipped; batches already accepted still finish and are watched. */
  cancelJob(id: string): Promise<ImportJob> {
    return this.applied(id, { type: 'cancel', at: this.now() });
  }

  /** Opts in or out of the browser notification when the job finishes in a hidden tab. */
  setNotify(id: string, notify: boolean): Promise<ImportJob> {
    return this.applied(id, { type: 'notify', on: notify, at: this.now() });
  }

  /** Lets the runner take a paused job up again (after the key was fixed, say). */
  resumeJob(id: string): Promise<ImportJob> {
    return this.applied(id, { type: 'resume', at: this.now() });
  }

  async deleteJob(id: string): Promise<void> {
    const db = await this.db();
    const tx = db.transaction(['jobs', 'payloads', 'outcomes'], 'readwrite');
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

  /** The user chose to send an `unknown` chunk again (its rows without reference may be created twice). */
  resendChunk(jobId: string, chunkId: number): Promise<ImportJob> {
    return this.applied(jobId, { type: 'resend', chunkId, at: this.now() });
  }

  /** The user chose not to send an `unknown` chunk again: its rows count as skipped. */
  skipChunk(jobId: string, chunkId: number): Promise<ImportJob> {
    return this.applied(jobId, { type: 'skip', chunkId, at: this.now() });
  }

  /**
   * Replaces a chunk the service refused for its size by pieces of at most `pieceRows` rows
   * (halves by default), all pending, their rows stored with them in the same transaction.
   * False when it cannot be split (one row, or the machine refused: the chunk was answered meanwhile).
   */
  async splitChunk(jobId: string, chunkId: number, pieceRows?: number): Promise<boolean> {
    const payload = await this.getPayload(jobId, chunkId);
    if (!payload) throw new Error(`Chunk ${chunkId} of job ${jobId} has no stored rows.`);
    const { splitChunkBody } = await import('./chunking');
    const pieces = splitChunkBody(payload.body, payload.rowNumbers, pieceRows);
    if (!pieces) return false;
    const db = await this.db();
    const tx = db.transaction(['jobs', 'payloads'], 'readwrite');
    const job = await tx.objectStore('jobs').get(jobId);
    if (!job) {
      tx.abort();
      await tx.done.catch(() => undefined);
      throw new JobNotFoundError(jobId);
    }
    const split = transition(job, { type: 'split', chunkId, pieces, at: this.now() });
    if (split.job === null) {
      await tx.done;
      return false;
    }
    const firstId = job.nextChunkId;
    await Promise.all([
      tx.objectStore('jobs').put(split.job),
      tx.objectStore('payloads').delete([jobId, chunkId]),
      ...pieces.map((piece, i) => tx.objectStore('payloads').put({ jobId, chunkId: firstId + i, rowNumbers: piece.rowNumbers, body: piece.body })),
      tx.done,
    ]);
    this.changed();
    return true;
  }

  async saveOutcome(outcome: BatchOutcome): Promise<void> {
    await (await this.db()).put('outcomes', outcome);
  }

  /** Closes the database and the channel (tests, and a store that is being replaced). */
  async close(): Promise<void> {
    this.channel?.close();
    if (this.dbPromise) (await this.dbPromise).close();
    this.dbPromise = null;
  }

  private db(): Promise<IDBPDatabase<JobDb>> {
    this.dbPromise ??= openDB<JobDb>(this.dbName, 1, {
      upgrade(db) {
        db.createObjectStore('jobs', { keyPath: 'id' }).createIndex('createdAt', 'createdAt');
        db.createObjectStore('payloads', { keyPath: ['jobId', 'chunkId'] }).createIndex('jobId', 'jobId');
        db.createObjectStore('outcomes', { keyPath: ['jobId', 'batchId'] }).createIndex('jobId', 'jobId');
      },
    });
    return this.dbPromise;
  }

  private changed(): void {
    this.channel?.postMessage('changed');
    void this.reload();
  }

  /**
   * After a write of one job: the job as written takes its place in the snapshot, and only it
   * (the others keep their objects, so what shows them need not render again). Re-reading every
   * job after each of the runner's writes cost the page a clone of all of them, many times a
   * second while batches are polled. A reload under way when the write committed reads again.
   */
  private changedOne(job: ImportJob): void {
    this.channel?.postMessage('changed');
    const at = this.snapshot.jobs.findIndex((stored) => stored.id === job.id);
    if (this.snapshot.status !== 'ready' || at < 0) {
      void this.reload();
      return;
    }
    if (this.reloading) this.reloadAgain = true;
    const jobs = this.snapshot.jobs.slice();
    jobs[at] = job;
    this.set({ ...this.snapshot, jobs });
  }

  private set(next: JobsSnapshot): void {
    this.snapshot = next;
    this.listeners.forEach((listener) => listener());
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
