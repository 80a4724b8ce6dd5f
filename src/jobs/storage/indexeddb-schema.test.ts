import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImportJob } from '../import-job';
import { JOB_DATABASE_VERSION } from './indexeddb-schema';
import { IndexedDbJobStorage } from './indexeddb-storage';

let count = 0;
const storages: IndexedDbJobStorage[] = [];
afterEach(async () => {
  await Promise.all(storages.splice(0).map((storage) => storage.close()));
});

/** Every object store of a database with its key path and indexes: what a migration must leave equal. */
function layout(db: IDBDatabase) {
  const tx = db.transaction([...db.objectStoreNames], 'readonly');
  return [...db.objectStoreNames].map((name) => {
    const store = tx.objectStore(name);
    return { name, keyPath: store.keyPath, indexes: [...store.indexNames].map((index) => ({ index, keyPath: store.index(index).keyPath, unique: store.index(index).unique })) };
  });
}

const rawOpen = (name: string, version?: number) =>
  new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name, version);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('open failed'));
  });

/** Version 1 exactly as the console has made it in users' browsers since jobs were first kept. */
function openVersion1(name: string) {
  return openDB(name, 1, {
    upgrade(db) {
      db.createObjectStore('jobs', { keyPath: 'id' }).createIndex('createdAt', 'createdAt');
      db.createObjectStore('payloads', { keyPath: ['jobId', 'chunkId'] }).createIndex('jobId', 'jobId');
      db.createObjectStore('outcomes', { keyPath: ['jobId', 'batchId'] }).createIndex('jobId', 'jobId');
    },
  });
}

describe('the job database', () => {
  it('opens a database an earlier console laid out at version 1 with its jobs, payloads and outcomes, laid out as a fresh one', async () => {
    const name = `schema-test-${++count}`;
    const old = await openVersion1(name);
    const kept = { id: 'j1', createdAt: 5, source: { kind: 'quick-add' }, chunks: [], batches: {} } as unknown as ImportJob;
    await old.put('jobs', kept);
    await old.put('payloads', { jobId: 'j1', chunkId: 0, rowNumbers: [2], body: { format: 'csv', csv: 'a\r\n1' } });
    await old.put('outcomes', { jobId: 'j1', batchId: 'b1', chunkId: 0, status: 'completed', failureReason: null, items: [null] });
    old.close();

    const storage = new IndexedDbJobStorage(name);
    storages.push(storage);
    expect(await storage.list()).toEqual([{ ...kept, numbering: 'Row' }]);
    expect((await storage.payload('j1', 0))?.rowNumbers).toEqual([2]);
    expect((await storage.outcome('j1', 'b1'))?.items).toEqual([null]);
    await storage.close();

    const fresh = new IndexedDbJobStorage(`schema-test-${++count}`);
    storages.push(fresh);
    await fresh.list();
    await fresh.close();
    const [migrated, made] = await Promise.all([rawOpen(name), rawOpen(fresh.databaseName)]);
    expect(migrated.version).toBe(JOB_DATABASE_VERSION);
    expect(layout(migrated)).toEqual(layout(made));
    migrated.close();
    made.close();
  });

  it('tells every job kept at version 1 what its row numbers count, from its source, and calls a done job finished', async () => {
    const name = `schema-test-${++count}`;
    const old = await openVersion1(name);
    const file = (fileName: string, sheet?: string) => ({ kind: 'file', fileName, size: 1, contentHash: null, ...(sheet ? { sheet } : {}) });
    const sources: Record<string, unknown> = {
      csv: file('march.csv'),
      txt: file('march.txt'),
      xlsx: file('march.xlsx'),
      sheet: file('export', 'Sheet1'),
      list: { kind: 'quick-add' },
      retry: { kind: 'retry', jobId: 'csv', label: 'Retry of march.csv' },
      again: { kind: 'retry', jobId: 'retry', label: 'Retry of Retry of march.csv' },
      orphan: { kind: 'retry', jobId: 'gone', label: 'Retry of a deleted job' },
    };
    for (const [id, source] of Object.entries(sources)) await old.put('jobs', { id, createdAt: 1, source, chunks: [], batches: {}, runState: id === 'list' ? 'running' : 'done' });
    old.close();

    const storage = new IndexedDbJobStorage(name);
    storages.push(storage);
    const jobs = await storage.list();
    const numbering = Object.fromEntries(jobs.map((job) => [job.id, job.numbering]));
    expect(numbering).toEqual({ csv: 'Line', txt: 'Line', xlsx: 'Row', sheet: 'Row', list: 'Row', retry: 'Line', again: 'Line', orphan: 'Row' });
    expect(new Set(jobs.map((job) => `${job.id} ${job.runState}`))).toContain('list running');
    expect(jobs.filter((job) => job.runState === 'finished')).toHaveLength(7);
  });

  it('does not block a newer console’s upgrade from another tab: its connection steps aside', async () => {
    const storage = new IndexedDbJobStorage(`schema-test-${++count}`);
    storages.push(storage);
    await storage.list(); // the connection is open
    let blocked = false;
    const newer = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(storage.databaseName, JOB_DATABASE_VERSION + 1);
      request.onblocked = () => (blocked = true);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('open failed'));
    });
    expect(blocked).toBe(false);
    expect(newer.version).toBe(JOB_DATABASE_VERSION + 1);
    newer.close();
  });
});
