// The results thread's access to the job store's database (the layout: indexeddb-schema.ts). It
// saves a polled batch's outcome from the thread that read it, so a 5,000-item outcome is not
// cloned on the page's thread twice (the thread's message, then IndexedDB), and reads a job, its
// outcomes and payloads for the results the thread holds (thread/results-session.ts). It writes
// only the `outcomes` store, only into a database the job store already made, and only while the
// job record exists, in one transaction, so a job deleted meanwhile leaves nothing behind. The
// job record stays the job store's to update.
import type { IDBPDatabase } from 'idb';
import type { BatchOutcome, ChunkPayload, ImportJob } from '../import-job';
import { JobDatabaseConnection, type JobDb, NoJobDatabaseError } from './indexeddb-schema';

export class OutcomeWriter {
  // Only the job store makes the database; a deletion or a newer version elsewhere closes this connection.
  private readonly connection: JobDatabaseConnection;

  constructor(dbName: string) {
    this.connection = new JobDatabaseConnection(dbName, false);
  }

  /** False when the job is no longer kept (nothing was written). */
  async save(outcome: BatchOutcome): Promise<boolean> {
    let db: IDBPDatabase<JobDb>;
    try {
      db = await this.db();
    } catch (error) {
      if (error instanceof NoJobDatabaseError) return false;
      throw error;
    }
    const tx = db.transaction(['jobs', 'outcomes'], 'readwrite');
    const jobKey = await tx.objectStore('jobs').getKey(outcome.jobId);
    if (jobKey === undefined) {
      await tx.done;
      return false;
    }
    await Promise.all([tx.objectStore('outcomes').put(outcome), tx.done]);
    return true;
  }

  /** The job record, or undefined when it (or the database) is not kept. */
  get(jobId: string): Promise<ImportJob | undefined> {
    return this.read((db) => db.get('jobs', jobId));
  }

  outcome(jobId: string, batchId: string): Promise<BatchOutcome | undefined> {
    return this.read((db) => db.get('outcomes', [jobId, batchId]));
  }

  payload(jobId: string, chunkId: number): Promise<ChunkPayload | undefined> {
    return this.read((db) => db.get('payloads', [jobId, chunkId]));
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  private async read<T>(get: (db: IDBPDatabase<JobDb>) => Promise<T | undefined>): Promise<T | undefined> {
    try {
      return await get(await this.db());
    } catch (error) {
      if (error instanceof NoJobDatabaseError) return undefined;
      throw error;
    }
  }

  private db(): Promise<IDBPDatabase<JobDb>> {
    return this.connection.get();
  }
}
