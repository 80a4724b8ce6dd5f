import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchOutcome, ChunkPayload, ImportJob } from '../import-job';
import { madeJob } from '../job-machine';
import { IndexedDbJobStorage } from './indexeddb-storage';
import { JobNotFoundError, type JobStorage } from './job-storage';
import { MemoryJobStorage } from './memory-storage';
import { SqliteJobDatabase } from './sqlite-storage';

let count = 0;
const opened: JobStorage[] = [];
const databases: SqliteJobDatabase[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((storage) => storage.close()));
  databases.splice(0).forEach((database) => database.close());
});

/** Two holders of one storage, as two tabs hold one browser's IndexedDB. */
const adapters: [string, () => [JobStorage, JobStorage]][] = [
  ['memory', () => {
    const storage = new MemoryJobStorage();
    return [storage, storage];
  }],
  ['IndexedDB', () => {
    const name = `storage-test-${++count}`;
    const pair: [JobStorage, JobStorage] = [new IndexedDbJobStorage(name), new IndexedDbJobStorage(name)];
    opened.push(...pair);
    return pair;
  }],
  ['SQLite', () => {
    const database = new SqliteJobDatabase(':memory:');
    databases.push(database);
    // Another workspace's jobs in the same database: none of them may show through.
    void database.storage('another-workspace').create(job('theirs', 99), [payload('theirs', 0, [2, 3])]);
    return [database.storage('ws'), database.storage('ws')];
  }],
];

function job(id: string, createdAt: number, rows = 4): ImportJob {
  const rowNumbers = Array.from({ length: rows }, (_, i) => i + 2);
  return madeJob(
    { id, at: createdAt, source: { kind: 'quick-add' }, endpoint: 'list', headers: [], chunkRows: 2, serviceUrl: '', rowsRead: rows, numbering: 'Row', skippedBeforeSend: [], notify: false },
    [{ rowNumbers: rowNumbers.slice(0, 2), withoutReference: 0 }, { rowNumbers: rowNumbers.slice(2), withoutReference: 0 }],
  );
}
const payload = (jobId: string, chunkId: number, rowNumbers: number[]): ChunkPayload => ({ jobId, chunkId, rowNumbers, body: { format: 'json', requests: rowNumbers.map((n) => ({ reference: `R${n}` })) } });
const outcome = (jobId: string, batchId: string): BatchOutcome => ({ jobId, batchId, chunkId: 0, status: 'completed', failureReason: null, items: [null] });

describe.each(adapters)('%s job storage', (_name, open) => {
  it('keeps a job with its payloads; lists newest first', async () => {
    const [storage] = open();
    await storage.create(job('a', 1), [payload('a', 0, [2, 3]), payload('a', 1, [4, 5])]);
    await storage.create(job('b', 2), [payload('b', 0, [2, 3])]);
    expect((await storage.list()).map((j) => j.id)).toEqual(['b', 'a']);
    expect(await storage.get('a')).toEqual(job('a', 1));
    expect(await storage.payload('a', 1)).toEqual(payload('a', 1, [4, 5]));
    expect(await storage.get('nope')).toBeUndefined();
  });

  it('leaves nothing behind when a job cannot be kept', async () => {
    const [storage] = open();
    const unclonable = { ...job('c', 1), source: { kind: 'quick-add', describe: () => 'not data' } } as unknown as ImportJob;
    await expect(storage.create(unclonable, [payload('c', 0, [2, 3])])).rejects.toThrow();
    expect(await storage.get('c')).toBeUndefined();
    expect(await storage.payload('c', 0)).toBeUndefined();
  });

  it('updates one job with the payloads its change makes and drops; null writes nothing', async () => {
    const [storage] = open();
    await storage.create(job('a', 1), [payload('a', 0, [2, 3]), payload('a', 1, [4, 5])]);
    const updated = await storage.update('a', (stored) => ({
      job: { ...stored, nextChunkId: 4 },
      putPayloads: [payload('a', 2, [2]), payload('a', 3, [3])],
      deletePayloads: [0],
    }));
    expect(updated.nextChunkId).toBe(4);
    expect(await storage.payload('a', 0)).toBeUndefined();
    expect((await storage.payload('a', 3))?.rowNumbers).toEqual([3]);
    const untouched = await storage.update('a', () => null);
    expect(untouched).toEqual(updated);
    await expect(storage.update('gone', (stored) => ({ job: stored }))).rejects.toBeInstanceOf(JobNotFoundError);
  });

  it('hands out copies: a change made to what it returned is not kept', async () => {
    const [storage] = open();
    await storage.create(job('a', 1), []);
    const read = (await storage.get('a'))!;
    read.runState = 'cancelled';
    expect((await storage.get('a'))?.runState).toBe('running');
  });

  it('keeps outcomes by job and batch, and removes a job with its payloads and outcomes', async () => {
    const [storage] = open();
    await storage.create(job('a', 1), [payload('a', 0, [2, 3])]);
    await storage.create(job('b', 2), [payload('b', 0, [2, 3])]);
    await storage.saveOutcome(outcome('a', 'b1'));
    await storage.saveOutcome(outcome('a', 'b2'));
    await storage.saveOutcome(outcome('b', 'b3'));
    expect((await storage.outcomes('a')).map((o) => o.batchId).sort()).toEqual(['b1', 'b2']);
    expect(await storage.outcome('a', 'b2')).toEqual(outcome('a', 'b2'));
    await storage.remove('a');
    expect(await storage.get('a')).toBeUndefined();
    expect(await storage.payload('a', 0)).toBeUndefined();
    expect(await storage.outcomes('a')).toEqual([]);
    expect(await storage.outcomes('b')).toHaveLength(1);
  });

  it('tells the other holders of the storage when a job changed', async () => {
    const [mine, theirs] = open();
    let told = 0;
    const unsubscribe = theirs.subscribe(() => told++);
    await mine.create(job('a', 1), []);
    await expect.poll(() => told).toBeGreaterThan(0);
    const before = told;
    await mine.update('a', (stored) => ({ job: { ...stored, notify: true } }));
    await expect.poll(() => told).toBeGreaterThan(before);
    unsubscribe();
  });
});
