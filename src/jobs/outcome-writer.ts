// Saves a polled batch's outcome from the results worker that read it, into the job store's
// database (job-store.ts lays it out and owns every other write). It lives in jobs/, the one
// writer of IndexedDB (DESIGN §2), and runs in the worker: the one module of jobs/ a worker may
// import (eslint.config.js). a 5,000-item outcome
// written from the page cost it a structured clone of every item, twice (the worker's message,
// then IndexedDB). The worker writes only the `outcomes` store (key [jobId, batchId]), only into
// a database the store already made, and only while the job record exists, in one transaction,
// so a job deleted meanwhile leaves nothing behind. The job record stays the store's to update.
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { BatchOutcome } from './import-job';

/** The part of the job store's layout this writer touches (job-store.ts JobDb). */
interface OutcomesDb extends DBSchema {
  jobs: { key: string; value: { id: string } };
  outcomes: { key: [string, string]; value: BatchOutcome };
}

/** Thrown when the database was never made by the job store: there is no job to save for. */
class NoJobStore extends Error {}

export class OutcomeWriter {
  private dbPromise: Promise<IDBPDatabase<OutcomesDb>> | null = null;

  constructor(private readonly dbName: string) {}

  /** False when the job is no longer kept (nothing was written). */
  async save(outcome: BatchOutcome): Promise<boolean> {
    let db: IDBPDatabase<OutcomesDb>;
    try {
      db = await this.db();
    } catch (error) {
      if (error instanceof NoJobStore) return false;
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

  async close(): Promise<void> {
    const opening = this.dbPromise;
    this.dbPromise = null;
    if (opening) (await opening.catch(() => null))?.close();
  }

  private db(): Promise<IDBPDatabase<OutcomesDb>> {
    if (this.dbPromise) return this.dbPromise;
    let missing = false;
    const opening = openDB<OutcomesDb>(this.dbName, 1, {
      // Only the job store lays the database out: one that does not exist yet is not made here.
      upgrade(_db, _old, _new, transaction) {
        missing = true;
        transaction.done.catch(() => undefined); // the abort below is the answer, not a failure
        transaction.abort();
      },
    }).then(
      (db) => {
        // A deletion or a newer version elsewhere must not wait on this worker's connection.
        db.addEventListener('versionchange', () => {
          db.close();
          if (this.dbPromise === opening) this.dbPromise = null;
        });
        return db;
      },
      (error: unknown) => {
        if (this.dbPromise === opening) this.dbPromise = null;
        throw missing ? new NoJobStore(this.dbName) : error;
      },
    );
    this.dbPromise = opening;
    return opening;
  }
}
