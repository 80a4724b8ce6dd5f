// Saves a polled batch's outcome from the results worker that read it, into the job store's
// database (the layout: indexeddb-schema.ts), so a 5,000-item outcome is not cloned on the page's
// thread twice (the worker's message, then IndexedDB). It runs in the worker: the one module of
// jobs/ a worker may import (eslint.config.js). It writes only the `outcomes` store, only into a
// database the job store already made, and only while the job record exists, in one transaction,
// so a job deleted meanwhile leaves nothing behind. The job record stays the job store's to update.
import type { IDBPDatabase } from 'idb';
import type { BatchOutcome } from '../import-job';
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

  close(): Promise<void> {
    return this.connection.close();
  }

  private db(): Promise<IDBPDatabase<JobDb>> {
    return this.connection.get();
  }
}
