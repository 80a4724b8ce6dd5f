import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImportJob } from '../import-job';
import { jobDatabasePath, SQLITE_JOB_DATABASE_VERSION, SqliteJobDatabase } from './sqlite-storage';

const folders: string[] = [];
const databases: SqliteJobDatabase[] = [];
afterEach(() => {
  databases.splice(0).forEach((database) => database.close());
  folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true }));
});

function tempFile(): string {
  const folder = mkdtempSync(join(tmpdir(), 'sqlite-jobs-'));
  folders.push(folder);
  return join(folder, 'console-jobs.sqlite');
}

/** Every table and index with its SQL: what a migration must leave equal to a fresh database. */
function layout(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare(`SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name`).all() as { type: string; name: string; sql: string }[];
    // The same statement however it was spaced.
    return rows.map((row) => ({ ...row, sql: row.sql.replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')') }));
  } finally {
    db.close();
  }
}

describe('the console server job database', () => {
  it('opens a database laid out at version 1 with its jobs, payloads and outcomes, laid out as a fresh one', async () => {
    const path = tempFile();
    // Version 1 exactly as the console's server has made it since it first kept jobs.
    const old = new Database(path);
    old.exec(`
      CREATE TABLE jobs (id TEXT PRIMARY KEY, workspace TEXT NOT NULL, created_at INTEGER NOT NULL, record TEXT NOT NULL);
      CREATE INDEX jobs_by_workspace ON jobs (workspace, created_at DESC);
      CREATE TABLE payloads (job_id TEXT NOT NULL, chunk_id INTEGER NOT NULL, record TEXT NOT NULL, PRIMARY KEY (job_id, chunk_id)) WITHOUT ROWID;
      CREATE TABLE outcomes (job_id TEXT NOT NULL, batch_id TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (job_id, batch_id)) WITHOUT ROWID;
      PRAGMA user_version = 1;
    `);
    const kept = { id: 'j1', createdAt: 5, chunks: [], batches: {} } as unknown as ImportJob;
    old.prepare('INSERT INTO jobs VALUES (?, ?, ?, ?)').run('j1', 'ws', 5, JSON.stringify(kept));
    old.prepare('INSERT INTO payloads VALUES (?, ?, ?)').run('j1', 0, JSON.stringify({ jobId: 'j1', chunkId: 0, rowNumbers: [2], body: { format: 'csv', csv: 'a\r\n1' } }));
    old.prepare('INSERT INTO outcomes VALUES (?, ?, ?)').run('j1', 'b1', JSON.stringify({ jobId: 'j1', batchId: 'b1', chunkId: 0, status: 'completed', failureReason: null, items: [null] }));
    old.close();
    const oldLayout = layout(path);

    const database = new SqliteJobDatabase(path);
    databases.push(database);
    const storage = database.storage('ws');
    expect(await storage.list()).toEqual([kept]);
    expect((await storage.payload('j1', 0))?.rowNumbers).toEqual([2]);
    expect((await storage.outcome('j1', 'b1'))?.status).toBe('completed');
    database.close();

    const fresh = tempFile();
    new SqliteJobDatabase(fresh).close();
    expect(layout(path)).toEqual(layout(fresh));
    expect(layout(path)).toEqual(oldLayout);
    const version = new Database(path, { readonly: true });
    expect(version.pragma('user_version', { simple: true })).toBe(SQLITE_JOB_DATABASE_VERSION);
    version.close();
  });

  it('refuses a database a newer console laid out, with a sentence, and leaves it as it was', () => {
    const path = tempFile();
    const newer = new Database(path);
    newer.exec(`CREATE TABLE jobs (id TEXT PRIMARY KEY, shape TEXT); PRAGMA user_version = ${SQLITE_JOB_DATABASE_VERSION + 1};`);
    newer.close();
    expect(() => new SqliteJobDatabase(path)).toThrow(/made by a newer console/);
    expect(layout(path)).toEqual([{ type: 'table', name: 'jobs', sql: 'CREATE TABLE jobs (id TEXT PRIMARY KEY, shape TEXT)' }]);
  });

  it('keeps its jobs in a file beside the console database, and in memory when that is', () => {
    expect(jobDatabasePath('.data/console.sqlite')).toBe('.data/console-jobs.sqlite');
    expect(jobDatabasePath('/var/lib/console.db')).toBe('/var/lib/console-jobs.sqlite');
    expect(jobDatabasePath(':memory:')).toBe(':memory:');
  });

  it('forgets jobs finished before a time, with their rows and outcomes; keeps the others', async () => {
    const database = new SqliteJobDatabase(':memory:');
    databases.push(database);
    const storage = database.storage('a');
    const job = (id: string, finishedAt: number | null) => ({ id, createdAt: 1, finishedAt, chunks: [], batches: {} }) as unknown as ImportJob;
    await storage.create(job('old', 10), [{ jobId: 'old', chunkId: 0, rowNumbers: [2], body: { format: 'csv', csv: 'a' } }]);
    await storage.saveOutcome({ jobId: 'old', batchId: 'b', chunkId: 0, status: 'completed', failureReason: null, items: [] });
    await storage.create(job('recent', 30), []);
    await storage.create(job('running', null), []);
    expect(database.forgetFinishedBefore(20)).toBe(1);
    expect((await storage.list()).map((j) => j.id).sort()).toEqual(['recent', 'running']);
    expect(await storage.payload('old', 0)).toBeUndefined();
    expect(database.db.prepare('SELECT COUNT(*) AS n FROM outcomes').get()).toEqual({ n: 0 });
  });

  it('names the workspaces that hold a job not finished', async () => {
    const database = new SqliteJobDatabase(':memory:');
    databases.push(database);
    const job = (id: string, finishedAt: number | null) => ({ id, createdAt: 1, finishedAt, chunks: [], batches: {} }) as unknown as ImportJob;
    await database.storage('a').create(job('1', null), []);
    await database.storage('b').create(job('2', 7), []);
    await database.storage('c').create(job('3', null), []);
    expect(database.workspacesWithUnfinishedJobs().sort()).toEqual(['a', 'c']);
  });
});
