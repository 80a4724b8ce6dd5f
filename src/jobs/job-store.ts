// The import jobs, and the only code that changes them (DESIGN §5): every change is an event of
// job-machine.ts applied atomically to one job in its storage (storage/job-storage.ts: IndexedDB
// in the browser, SQLite on the console's server, memory in tests; a job the console's server
// runs has each event applied there). Pages read the jobs through
// useSyncExternalStore(store.subscribe, store.getSnapshot); a write of one job puts it in this
// store's snapshot as written, and a change made elsewhere (another tab) reloads them all.
//
//   createJob(newJob)            → ImportJob   one call from normalized rows, CSV chunks or JSON requests
//   getJob(id) / listJobs()                    from storage; getSnapshot().jobs is the same, newest first
//   getPayload(jobId, chunkId)   → rows as sent (CSV or JSON) and their file row numbers
//   getOutcomes(jobId)           → every finished batch's items, for results and fix & retry
//   getOutcome(jobId, batchId)   → one batch's items (a results grid that grows batch by batch)
//   apply(id, event)             → the job after one event (or why it was refused): the runner's
//                                  and the submit loop's only write
//   cancelJob(id)                stops sending (accepted batches still finish); resumeJob(id)
//   deleteJob(id)                the job, its payloads and outcomes
//   setNotify(id, on)            opt in to a notification when it finishes in a hidden tab
//   resendChunk / skipChunk      the user's answer to an `unknown` chunk
//   splitChunk(…, pieceRows?)    a chunk refused for a cap → smaller pending chunks, same rows
//   saveOutcome                  a finished batch's compact items
//
// In the browser one write comes from elsewhere: a polled batch's outcome is saved by the results
// worker that read it (storage/indexeddb-outcome-writer.ts), so its 5,000 items are never cloned
// on the page's thread.
import type { BatchOutcome, ChunkPayload, ImportJob, NewJob } from './import-job';
import { type JobEvent, madeJob, transition } from './job-machine';
import type { JobStorage } from './storage/job-storage';
import { Observable } from '../api/observable';

export interface JobsSnapshot {
  status: 'loading' | 'ready' | 'unavailable';
  /** Newest first. */
  jobs: readonly ImportJob[];
  /** Why jobs cannot be kept (private mode without IndexedDB…), as a sentence. */
  error: string | null;
}

/** A job after an event: as stored afterwards, and why the event was refused (null: it applied). */
export interface Applied {
  job: ImportJob;
  refused: string | null;
}

export class JobStore extends Observable<JobsSnapshot> {
  private reloading: Promise<void> | null = null;
  private reloadAgain = false;

  /** `storage`: where the jobs are kept; tests also write their fixtures straight into it. */
  constructor(
    readonly storage: JobStorage,
    private readonly now: () => number = Date.now,
  ) {
    super({ status: 'loading', jobs: [], error: null });
    storage.subscribe(() => void this.reload());
  }

  /** The first reader loads every job. */
  protected override onSubscribe(): void {
    if (this.getSnapshot().status === 'loading') void this.reload();
  }

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
        numbering: input.numbering,
        skippedBeforeSend: input.skipped,
        notify: input.notify ?? false,
      },
      cut,
    );
    await this.storage.create(
      job,
      cut.map((chunk, chunkId) => ({ jobId: job.id, chunkId, rowNumbers: chunk.rowNumbers, body: chunk.body, ...(chunk.foreseen === undefined ? {} : { foreseen: chunk.foreseen }) })),
    );
    void this.reload();
    if (input.contentHash && job.source.kind === 'file') void this.recordContentHash(job.id, input.contentHash);
    return job;
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

  getJob(id: string): Promise<ImportJob | undefined> {
    return this.storage.get(id);
  }

  /** Every job, newest first. */
  listJobs(): Promise<ImportJob[]> {
    return this.storage.list();
  }

  // Arrow properties: pages hand these to the results as they are (features/results).
  getPayload = (jobId: string, chunkId: number): Promise<ChunkPayload | undefined> => this.storage.payload(jobId, chunkId);

  getOutcomes = (jobId: string): Promise<BatchOutcome[]> => this.storage.outcomes(jobId);

  /** One finished batch's outcome: what a grid that already holds the others needs. */
  getOutcome = (jobId: string, batchId: string): Promise<BatchOutcome | undefined> => this.storage.outcome(jobId, batchId);

  /**
   * Applies one event to one job atomically (job-machine.ts): the job as stored afterwards, and
   * the sentence why the event was refused (then nothing is written). Rejects with
   * JobNotFoundError when the job is gone.
   */
  async apply(id: string, event: JobEvent): Promise<Applied> {
    const elsewhere = await this.storage.applyEvent?.(id, event);
    if (elsewhere) {
      if (elsewhere.refused === null) this.changedOne(elsewhere.job);
      return elsewhere;
    }
    let refused: string | null = null;
    const job = await this.storage.update(id, (stored) => {
      const next = transition(stored, event);
      refused = next.refused;
      return next.job && { job: next.job };
    });
    if (refused === null) this.changedOne(job);
    return { job, refused };
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

  /**
   * The user chose to send an `unknown` chunk again (its rows without reference may be created
   * twice). Refused, with its sentence, when the chunk is no longer unknown (answered meanwhile).
   */
  resendChunk(jobId: string, chunkId: number): Promise<Applied> {
    return this.apply(jobId, { type: 'resend', chunkId, at: this.now() });
  }

  /** The user chose not to send an `unknown` chunk again: its rows count as skipped. Refused as resendChunk is. */
  skipChunk(jobId: string, chunkId: number): Promise<Applied> {
    return this.apply(jobId, { type: 'skip', chunkId, at: this.now() });
  }

  async deleteJob(id: string): Promise<void> {
    await this.storage.remove(id);
    void this.reload();
  }

  /**
   * Replaces a chunk the service refused for its size by pieces of at most `pieceRows` rows
   * (halves by default), all pending, their rows stored with them in the same write. False when
   * it cannot be split (one row, or the machine refused: the chunk was answered meanwhile).
   */
  async splitChunk(jobId: string, chunkId: number, pieceRows?: number): Promise<boolean> {
    const payload = await this.getPayload(jobId, chunkId);
    if (!payload) throw new Error(`Chunk ${chunkId} of job ${jobId} has no stored rows.`);
    const { splitChunkBody } = await import('./chunking');
    const pieces = splitChunkBody(payload.body, payload.rowNumbers, pieceRows);
    if (!pieces) return false;
    let split = false;
    const job = await this.storage.update(jobId, (stored) => {
      const next = transition(stored, { type: 'split', chunkId, pieces, at: this.now() });
      if (next.job === null) return null;
      split = true;
      // The pieces take the ids from the job's nextChunkId on (job-machine.ts).
      // Pieces keep the rows' order: each takes the foresight of its run of rows.
      let from = 0;
      const putPayloads = pieces.map((piece, i) => {
        const foreseen = payload.foreseen?.slice(from, from + piece.rowNumbers.length);
        from += piece.rowNumbers.length;
        return { jobId, chunkId: stored.nextChunkId + i, rowNumbers: piece.rowNumbers, body: piece.body, ...(foreseen === undefined ? {} : { foreseen }) };
      });
      return { job: next.job, putPayloads, deletePayloads: [chunkId] };
    });
    if (split) this.changedOne(job);
    return split;
  }

  async saveOutcome(outcome: BatchOutcome): Promise<void> {
    await this.storage.saveOutcome(outcome);
  }

  /** Closes the storage (tests, and a store that is being replaced). */
  close(): Promise<void> {
    return this.storage.close();
  }

  private async applied(id: string, event: JobEvent): Promise<ImportJob> {
    return (await this.apply(id, event)).job;
  }

  /**
   * After a write of one job: the job as written takes its place in the snapshot, and only it
   * (the others keep their objects, so what shows them need not render again). A reload under
   * way when the write committed reads again.
   */
  private changedOne(job: ImportJob): void {
    const at = this.getSnapshot().jobs.findIndex((stored) => stored.id === job.id);
    if (this.getSnapshot().status !== 'ready' || at < 0) {
      void this.reload();
      return;
    }
    if (this.reloading) this.reloadAgain = true;
    const jobs = this.getSnapshot().jobs.slice();
    jobs[at] = job;
    this.set({ ...this.getSnapshot(), jobs });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
