// The job store's IndexedDB layout, declared once and versioned. The browser's storage adapter
// (indexeddb-storage.ts) and the results worker's outcome writer (indexeddb-outcome-writer.ts)
// both open the database through openJobDatabase. The layout changes only by a new migration at
// the end of the list: a browser that kept jobs under an older version is migrated step by step
// on its next open, its jobs kept.
//
//   jobs      key id                 the job records (small: no row data); index createdAt
//   payloads  key [jobId, chunkId]   each chunk's rows as sent; index jobId
//   outcomes  key [jobId, batchId]   each finished batch's items; index jobId
import { type DBSchema, type IDBPDatabase, type IDBPTransaction, openDB, type StoreNames } from 'idb';
import type { RowNumbering } from '../../spreadsheet/row-numbering';
import type { BatchOutcome, ChunkPayload, ImportJob } from '../import-job';

export const JOB_DATABASE = 'import-console-jobs';

export interface JobDb extends DBSchema {
  jobs: { key: string; value: ImportJob; indexes: { createdAt: number } };
  payloads: { key: [string, number]; value: ChunkPayload; indexes: { jobId: string } };
  outcomes: { key: [string, string]; value: BatchOutcome; indexes: { jobId: string } };
}

type Migration = (db: IDBPDatabase<JobDb>, transaction: IDBPTransaction<JobDb, StoreNames<JobDb>[], 'versionchange'>) => void;

/** migrations[n] takes the database from version n to version n + 1. */
const MIGRATIONS: readonly Migration[] = [
  (db) => {
    db.createObjectStore('jobs', { keyPath: 'id' }).createIndex('createdAt', 'createdAt');
    db.createObjectStore('payloads', { keyPath: ['jobId', 'chunkId'] }).createIndex('jobId', 'jobId');
    db.createObjectStore('outcomes', { keyPath: ['jobId', 'batchId'] }).createIndex('jobId', 'jobId');
  },
  (_db, transaction) => {
    // Each job keeps what its row numbers count, and a job with no work left is `finished` (it
    // was `done`): the jobs kept at version 1 are rewritten so.
    const jobs = transaction.objectStore('jobs');
    void jobs.getAll().then((all: readonly JobOfVersion1[]) => {
      for (const job of all) void jobs.put({ ...job, numbering: numberingFromSource(job, all), runState: job.runState === 'done' ? 'finished' : job.runState });
    });
  },
];

/** A job record of version 1: no numbering, and `done` where it is now `finished`. */
type JobOfVersion1 = Omit<ImportJob, 'numbering' | 'runState'> & { runState: ImportJob['runState'] | 'done' };

const WORKBOOK = /\.(xlsx|xlsm|xls)$/i;

/**
 * What a version-1 job's row numbers count, from its source: a sheet's or a workbook's rows are
 * rows, a text file's are lines, a quick-add list's are rows; a retry's are its original file's
 * ("Row" when that job is gone).
 */
export function numberingFromSource(job: Pick<ImportJob, 'source'>, jobs: readonly Pick<ImportJob, 'id' | 'source'>[]): RowNumbering {
  let source = job.source;
  const seen = new Set<string>();
  while (source.kind === 'retry') {
    const originalId = source.jobId;
    const original = seen.has(originalId) ? undefined : jobs.find((candidate) => candidate.id === originalId);
    if (!original) return 'Row';
    seen.add(originalId);
    source = original.source;
  }
  if (source.kind === 'file') return source.sheet !== undefined || WORKBOOK.test(source.fileName) ? 'Row' : 'Line';
  return 'Row';
}

export const JOB_DATABASE_VERSION = MIGRATIONS.length;

/** The database was never made: there is no job in it (the worker then has nothing to save for). */
export class NoJobDatabaseError extends Error {
  override name = 'NoJobDatabaseError';
  constructor(name: string) {
    super(`There is no job database ${name} in this browser.`);
  }
}

/**
 * Opens the job database at the current version, migrating an older one. `create: false` does
 * not make a database that does not exist (NoJobDatabaseError). The connection closes itself
 * when a newer version of the console asks to upgrade (another tab), and calls `closed`, so the
 * upgrade is not blocked by this one; the caller opens again when it next needs the database.
 */
export async function openJobDatabase(name: string, options: { create: boolean; closed: () => void }): Promise<IDBPDatabase<JobDb>> {
  let missing = false;
  try {
    return await openDB<JobDb>(name, JOB_DATABASE_VERSION, {
      upgrade(db, oldVersion, _newVersion, transaction) {
        if (oldVersion === 0 && !options.create) {
          missing = true;
          transaction.done.catch(() => undefined); // the abort below is the answer, not a failure
          transaction.abort();
          return;
        }
        for (const migrate of MIGRATIONS.slice(oldVersion)) migrate(db, transaction);
      },
      blocking(_current, _blocked, event) {
        (event.target as IDBDatabase).close();
        options.closed();
      },
      terminated: options.closed,
    });
  } catch (error) {
    throw missing ? new NoJobDatabaseError(name) : error;
  }
}

/**
 * One connection to a job database, opened when first asked and opened again after it closed (a
 * deletion or a newer version in another tab) or failed to open. `create`: whether opening may
 * make the database (the job store) or only use one that exists (the outcome writer).
 */
export class JobDatabaseConnection {
  private opening: Promise<IDBPDatabase<JobDb>> | null = null;

  constructor(
    private readonly name: string,
    private readonly create: boolean,
  ) {}

  get(): Promise<IDBPDatabase<JobDb>> {
    if (this.opening) return this.opening;
    const opening: Promise<IDBPDatabase<JobDb>> = openJobDatabase(this.name, {
      create: this.create,
      closed: () => {
        if (this.opening === opening) this.opening = null;
      },
    });
    this.opening = opening;
    opening.catch(() => {
      if (this.opening === opening) this.opening = null;
    });
    return opening;
  }

  async close(): Promise<void> {
    const opening = this.opening;
    this.opening = null;
    if (opening) (await opening.catch(() => null))?.close();
  }
}
