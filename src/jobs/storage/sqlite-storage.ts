// Jobs kept in SQLite on the console's server (better-sqlite3): the engine's storage where the
// server runs jobs. One database file holds every workspace's jobs; a SqliteJobStorage is one
// workspace's view of it, so nothing of another workspace is listed, read or changed through it.
// The layout is declared once here, versioned as a list of migrations (PRAGMA user_version
// counts those applied): add a migration at the end, never edit one.
//
//   jobs      id, workspace, created_at, record   the job records as JSON (small: no row data)
//   payloads  job_id, chunk_id, record            each chunk's rows as sent
//   outcomes  job_id, batch_id, record            each finished batch's items
//
// Every write is one synchronous transaction (WAL, synchronous NORMAL): a process killed at any
// moment leaves each job as it was before or after one whole write, never between.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { BatchOutcome, ChunkPayload, ImportJob } from '../import-job';
import { JobNotFoundError, type JobStorage, type JobWrite } from './job-storage';

/** migrations[n] takes the database from version n to version n + 1. */
export const SQLITE_JOB_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    workspace TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    record TEXT NOT NULL
  );
  CREATE INDEX jobs_by_workspace ON jobs (workspace, created_at DESC);
  CREATE TABLE payloads (
    job_id TEXT NOT NULL,
    chunk_id INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (job_id, chunk_id)
  ) WITHOUT ROWID;
  CREATE TABLE outcomes (
    job_id TEXT NOT NULL,
    batch_id TEXT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (job_id, batch_id)
  ) WITHOUT ROWID;
  `,
];

export const SQLITE_JOB_DATABASE_VERSION = SQLITE_JOB_MIGRATIONS.length;

/** The file the console's server keeps its jobs in, beside its own database (CONSOLE_DB). */
export function jobDatabasePath(consoleDbPath: string): string {
  if (consoleDbPath === ':memory:') return ':memory:';
  return `${consoleDbPath.replace(/\.(sqlite3?|db)$/i, '')}-jobs.sqlite`;
}

/** The database of jobs: one connection per process, shared by every workspace's storage. */
export class SqliteJobDatabase {
  readonly db: Database.Database;
  /** Listeners by workspace, each with the storage it belongs to: a write tells the others. */
  private readonly listeners = new Map<string, Set<{ holder: SqliteJobStorage; listener: () => void }>>();

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    if (path !== ':memory:') this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    const applied = this.db.pragma('user_version', { simple: true }) as number;
    if (applied > SQLITE_JOB_DATABASE_VERSION) {
      this.db.close();
      throw new Error(`The job database ${path} was made by a newer console (layout ${applied}; this one knows ${SQLITE_JOB_DATABASE_VERSION}). Run that version, or move the file away.`);
    }
    this.db.transaction(() => {
      SQLITE_JOB_MIGRATIONS.slice(applied).forEach((sql) => this.db.exec(sql));
      this.db.pragma(`user_version = ${SQLITE_JOB_DATABASE_VERSION}`);
    })();
  }

  /** One workspace's jobs. */
  storage(workspace: string): SqliteJobStorage {
    return new SqliteJobStorage(this, workspace);
  }

  /** Every workspace that holds a job not finished (what boot resumes). */
  workspacesWithUnfinishedJobs(): string[] {
    const rows = this.db.prepare(`SELECT DISTINCT workspace FROM jobs WHERE json_extract(record, '$.finishedAt') IS NULL`).all() as { workspace: string }[];
    return rows.map((row) => row.workspace);
  }

  /** Forgets finished jobs (with their rows and outcomes) that finished before `before`; returns how many. */
  forgetFinishedBefore(before: number): number {
    return this.db.transaction(() => {
      const ids = (this.db.prepare(`SELECT id FROM jobs WHERE json_extract(record, '$.finishedAt') < ?`).all(before) as { id: string }[]).map((row) => row.id);
      for (const id of ids) {
        this.db.prepare('DELETE FROM payloads WHERE job_id = ?').run(id);
        this.db.prepare('DELETE FROM outcomes WHERE job_id = ?').run(id);
        this.db.prepare('DELETE FROM jobs WHERE id = ?').run(id);
      }
      return ids.length;
    })();
  }

  close(): void {
    this.listeners.clear();
    if (this.db.open) this.db.close();
  }

  /** @internal a storage's subscription */
  listen(workspace: string, holder: SqliteJobStorage, listener: () => void): () => void {
    const set = this.listeners.get(workspace) ?? new Set();
    this.listeners.set(workspace, set);
    const entry = { holder, listener };
    set.add(entry);
    return () => set.delete(entry);
  }

  /** @internal a write through `holder`: every other holder of the workspace is told */
  changed(workspace: string, holder: SqliteJobStorage): void {
    for (const entry of this.listeners.get(workspace) ?? []) if (entry.holder !== holder) entry.listener();
  }
}

/** JSON of a value that could be cloned: one that holds a function or the like is refused, as IndexedDB refuses it. */
function serialized(value: unknown): string {
  structuredClone(value);
  return JSON.stringify(value);
}

const parsed = <T,>(row: { record: string } | undefined): T | undefined => (row === undefined ? undefined : (JSON.parse(row.record) as T));

export class SqliteJobStorage implements JobStorage {
  private closed = false;
  private readonly unsubscribes = new Set<() => void>();

  constructor(
    private readonly database: SqliteJobDatabase,
    readonly workspace: string,
  ) {}

  private get db(): Database.Database {
    if (this.closed) throw new Error('This job storage is closed.');
    return this.database.db;
  }

  list(): Promise<ImportJob[]> {
    return settle(() =>
      (this.db.prepare('SELECT record FROM jobs WHERE workspace = ? ORDER BY created_at DESC').all(this.workspace) as { record: string }[]).map(
        (row) => JSON.parse(row.record) as ImportJob,
      ),
    );
  }

  get(id: string): Promise<ImportJob | undefined> {
    return settle(() => parsed<ImportJob>(this.jobRow(id)));
  }

  create(job: ImportJob, payloads: readonly ChunkPayload[]): Promise<void> {
    return settle(() => {
      const record = serialized(job);
      const rows = payloads.map((payload) => serialized(payload));
      this.db.transaction(() => {
        this.db.prepare('INSERT INTO jobs (id, workspace, created_at, record) VALUES (?, ?, ?, ?)').run(job.id, this.workspace, job.createdAt, record);
        const put = this.db.prepare('INSERT OR REPLACE INTO payloads (job_id, chunk_id, record) VALUES (?, ?, ?)');
        payloads.forEach((payload, i) => put.run(job.id, payload.chunkId, rows[i]));
      })();
      this.changed();
    });
  }

  update(id: string, change: (job: ImportJob) => JobWrite | null): Promise<ImportJob> {
    return settle(() => {
      let wrote = false;
      const job = this.db.transaction(() => {
        const stored = parsed<ImportJob>(this.jobRow(id));
        if (!stored) throw new JobNotFoundError(id);
        const write = change(stored);
        if (write === null) return parsed<ImportJob>(this.jobRow(id))!;
        this.db.prepare('UPDATE jobs SET record = ? WHERE id = ? AND workspace = ?').run(serialized(write.job), id, this.workspace);
        const drop = this.db.prepare('DELETE FROM payloads WHERE job_id = ? AND chunk_id = ?');
        for (const chunkId of write.deletePayloads ?? []) drop.run(id, chunkId);
        const put = this.db.prepare('INSERT OR REPLACE INTO payloads (job_id, chunk_id, record) VALUES (?, ?, ?)');
        for (const payload of write.putPayloads ?? []) put.run(id, payload.chunkId, serialized(payload));
        wrote = true;
        return JSON.parse(JSON.stringify(write.job)) as ImportJob;
      })();
      if (wrote) this.changed();
      return job;
    });
  }

  remove(id: string): Promise<void> {
    return settle(() => {
      this.db.transaction(() => {
        if (this.jobRow(id) === undefined) return;
        this.db.prepare('DELETE FROM payloads WHERE job_id = ?').run(id);
        this.db.prepare('DELETE FROM outcomes WHERE job_id = ?').run(id);
        this.db.prepare('DELETE FROM jobs WHERE id = ?').run(id);
      })();
      this.changed();
    });
  }

  payload(jobId: string, chunkId: number): Promise<ChunkPayload | undefined> {
    return settle(() =>
      parsed<ChunkPayload>(
        this.db
          .prepare('SELECT p.record FROM payloads p JOIN jobs j ON j.id = p.job_id WHERE p.job_id = ? AND p.chunk_id = ? AND j.workspace = ?')
          .get(jobId, chunkId, this.workspace) as { record: string } | undefined,
      ),
    );
  }

  outcomes(jobId: string): Promise<BatchOutcome[]> {
    return settle(() =>
      (
        this.db
          .prepare('SELECT o.record FROM outcomes o JOIN jobs j ON j.id = o.job_id WHERE o.job_id = ? AND j.workspace = ?')
          .all(jobId, this.workspace) as { record: string }[]
      ).map((row) => JSON.parse(row.record) as BatchOutcome),
    );
  }

  outcome(jobId: string, batchId: string): Promise<BatchOutcome | undefined> {
    return settle(() =>
      parsed<BatchOutcome>(
        this.db
          .prepare('SELECT o.record FROM outcomes o JOIN jobs j ON j.id = o.job_id WHERE o.job_id = ? AND o.batch_id = ? AND j.workspace = ?')
          .get(jobId, batchId, this.workspace) as { record: string } | undefined,
      ),
    );
  }

  /** Kept only while the job is this workspace's: an outcome of a deleted job is dropped. */
  saveOutcome(outcome: BatchOutcome): Promise<void> {
    return settle(() => {
      const record = serialized(outcome);
      this.db.transaction(() => {
        if (this.jobRow(outcome.jobId) === undefined) return;
        this.db.prepare('INSERT OR REPLACE INTO outcomes (job_id, batch_id, record) VALUES (?, ?, ?)').run(outcome.jobId, outcome.batchId, record);
      })();
    });
  }

  subscribe(listener: () => void): () => void {
    const unsubscribe = this.database.listen(this.workspace, this, listener);
    this.unsubscribes.add(unsubscribe);
    return () => {
      unsubscribe();
      this.unsubscribes.delete(unsubscribe);
    };
  }

  /** Closes this view; the database stays open for the other workspaces (SqliteJobDatabase.close). */
  close(): Promise<void> {
    this.unsubscribes.forEach((unsubscribe) => unsubscribe());
    this.unsubscribes.clear();
    this.closed = true;
    return Promise.resolve();
  }

  private jobRow(id: string): { record: string } | undefined {
    return this.db.prepare('SELECT record FROM jobs WHERE id = ? AND workspace = ?').get(id, this.workspace) as { record: string } | undefined;
  }

  private changed(): void {
    this.database.changed(this.workspace, this);
  }
}

/** A failure rejects rather than throwing at the caller, as the other adapters do. */
const settle = <T,>(work: () => T): Promise<T> => new Promise((resolve) => resolve(work()));
