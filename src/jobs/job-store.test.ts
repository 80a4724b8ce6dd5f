import 'fake-indexeddb/auto';
import Papa from 'papaparse';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BatchHeadline, ImportJob, NewJob } from './import-job';
import type { JobEvent } from './job-machine';
import { JobStore } from './job-store';
import { IndexedDbJobStorage } from './storage/indexeddb-storage';

const HEADERS = ['tracking_number', 'tracking_type', 'reference', 'carrier', 'name', 'viewers', 'tags', 'assignees'];

function rows(n: number, withReference = (i: number) => i % 2 === 0): string[][] {
  return Array.from({ length: n }, (_, i) => [`MSCU${String(i).padStart(7, '0')}`, 'container', withReference(i) ? `REF-${i}` : '', 'MSCU', '', '', 'a, b', '']);
}

function newJob(n: number, chunkRows: number, skipped = 0): NewJob {
  return {
    source: { kind: 'file', fileName: 'ships.csv', size: 1234, contentHash: 'abc' },
    serviceUrl: '',
    rowsRead: n + skipped, numbering: 'Line',
    skipped: Array.from({ length: skipped }, (_, i) => ({ rowNumber: n + i + 2, reason: 'tracking_number is empty' })),
    rows: { format: 'csv', headers: HEADERS, rows: rows(n), rowNumbers: Array.from({ length: n }, (_, i) => i + 2) },
    chunkRows,
  };
}

let stores: JobStore[] = [];
let dbCount = 0;
function openStore(name = `jobs-test-${++dbCount}`, now = () => 1_000): JobStore {
  const store = new JobStore(new IndexedDbJobStorage(name), now);
  stores.push(store);
  return store;
}

/** Applies events that must all apply; the job afterwards. */
async function events(store: JobStore, id: string, list: JobEvent[]): Promise<ImportJob> {
  let job: ImportJob | undefined;
  for (const event of list) {
    const applied = await store.apply(id, event);
    expect(applied.refused).toBeNull();
    job = applied.job;
  }
  return job!;
}

const headline = (id: string, total: number): BatchHeadline => ({ id, status: 'processing', total, completed: 0, failureReason: null });

afterEach(async () => {
  await Promise.all(stores.map((store) => store.close()));
  stores = [];
});

describe('JobStore', () => {
  it('creates a job from normalized rows in one call, cut into chunks with their rows kept as sent', async () => {
    const store = openStore();
    const job = await store.createJob(newJob(25, 10, 3));
    expect(job.chunks.map((c) => [c.firstPosition, c.rowCount, c.firstRow, c.lastRow, c.state.status])).toEqual([
      [0, 10, 2, 11, 'pending'],
      [10, 10, 12, 21, 'pending'],
      [20, 5, 22, 26, 'pending'],
    ]);
    expect(job.chunks[0]!.withoutReference).toBe(5);
    expect(job.skippedBeforeSend).toHaveLength(3);

    const payload = await store.getPayload(job.id, 1);
    expect(payload?.rowNumbers).toEqual([12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);
    if (payload?.body.format !== 'csv') throw new Error('expected CSV');
    const parsed = Papa.parse<string[]>(payload.body.csv);
    expect(parsed.data[0]).toEqual(HEADERS);
    expect(parsed.data[1]).toEqual(['MSCU0000010', 'container', 'REF-10', 'MSCU', '', '', 'a, b', '']);
    expect(parsed.data).toHaveLength(11);
  });

  it('writes each chunk’s rows before the job, and leaves no rows behind when the job cannot be written', async () => {
    const store = openStore();
    const id = '00000000-0000-4000-8000-000000000001';
    const randomUUID = vi.spyOn(crypto, 'randomUUID').mockReturnValue(id);
    try {
      // A source IndexedDB cannot clone: the job record's write fails after its 3 chunks' rows were written.
      const unclonable = { ...newJob(5, 2), source: { kind: 'quick-add', describe: () => 'not data' } } as unknown as NewJob;
      await expect(store.createJob(unclonable)).rejects.toThrow();
      expect(await store.getJob(id)).toBeUndefined();
      expect(await Promise.all([0, 1, 2].map((chunkId) => store.getPayload(id, chunkId)))).toEqual([undefined, undefined, undefined]);
    } finally {
      randomUUID.mockRestore();
    }
  });

  it('puts a written job in the snapshot as written, without re-reading the others', async () => {
    let clock = 1_000;
    const store = openStore(undefined, () => ++clock);
    const unsubscribe = store.subscribe(() => undefined);
    const first = await store.createJob(newJob(5, 10));
    const second = await store.createJob(newJob(5, 10));
    await store.reload();
    const [before0, before1] = store.getSnapshot().jobs;
    expect(before0?.id).toBe(second.id);
    await store.setNotify(first.id, true);
    const after = store.getSnapshot().jobs;
    expect(after.map((job) => job.id)).toEqual([second.id, first.id]);
    expect(after[1]?.notify).toBe(true);
    expect(after[1]).not.toBe(before1);
    // The job not written keeps its object: what shows it need not render again.
    expect(after[0]).toBe(before0);
    expect(await store.getJob(first.id)).toEqual(after[1]);
    unsubscribe();
  });

  it('keeps the source file size at once and its SHA-256, given from outside, once it comes', async () => {
    const store = openStore();
    let give: (hex: string) => void = () => undefined;
    const contentHash = new Promise<string>((resolve) => (give = resolve));
    const hashOf = async (id: string) => ((await store.getJob(id))?.source as { contentHash: string | null }).contentHash;
    const job = await store.createJob({ ...newJob(5, 10), source: { kind: 'file', fileName: 'a.csv', size: 3, contentHash: null }, contentHash });
    // Created without waiting for the hash.
    expect(job.source).toMatchObject({ size: 3, contentHash: null });
    expect(await hashOf(job.id)).toBeNull();
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'; // SHA-256 of "abc" (FIPS 180-2)
    give(abc);
    await expect.poll(() => hashOf(job.id)).toBe(abc);
    expect(await store.getJob(job.id)).toMatchObject({ source: { size: 3 } });
  });

  it('leaves the content hash unknown when it never comes, and makes the job all the same', async () => {
    const store = openStore();
    const job = await store.createJob({
      ...newJob(5, 10),
      source: { kind: 'file', fileName: 'a.csv', size: 3, contentHash: null },
      contentHash: Promise.reject(new Error('The file reader stopped.')),
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await store.getJob(job.id))?.source).toMatchObject({ contentHash: null });
    // A job refused for its rows leaves the hash's failure observed (no unhandled rejection).
    await expect(store.createJob({ ...newJob(5, 10), rowsRead: 9, contentHash: Promise.reject(new Error('gone')) })).rejects.toThrow(/Rows read/);
  });

  it('refuses a job whose rows do not add up', async () => {
    const store = openStore();
    await expect(store.createJob({ ...newJob(5, 10), rowsRead: 9 })).rejects.toThrow(/Rows read \(9\) must equal rows to send \(5\) plus rows skipped \(0\)/);
  });

  it('lists jobs newest first and keeps them across store instances (a reload)', async () => {
    let clock = 1_000;
    const name = 'jobs-reload';
    const first = openStore(name, () => clock);
    const a = await first.createJob(newJob(3, 10));
    clock = 2_000;
    const b = await first.createJob({ ...newJob(2, 10), source: { kind: 'quick-add' } });
    await first.close();

    const second = openStore(name);
    expect((await second.listJobs()).map((job) => job.id)).toEqual([b.id, a.id]);
    await second.reload();
    expect(second.getSnapshot()).toMatchObject({ status: 'ready', error: null });
    expect(second.getSnapshot().jobs.map((job) => job.source.kind)).toEqual(['quick-add', 'file']);
  });

  it('notifies subscribers when a job changes', async () => {
    const store = openStore();
    const seen: string[] = [];
    store.subscribe(() => seen.push(store.getSnapshot().status));
    const job = await store.createJob(newJob(3, 10));
    await events(store, job.id, [{ type: 'claim', chunkId: 0, at: 5 }]);
    await store.reload();
    expect(store.getSnapshot().jobs[0]?.chunks[0]?.state.status).toBe('sending');
    expect(seen).toContain('ready');
  });

  it('splits a chunk in two halves that keep every row, in order, under new ids', async () => {
    const store = openStore();
    const job = await store.createJob(newJob(7, 7));
    expect(await store.splitChunk(job.id, 0)).toBe(true);
    const after = (await store.getJob(job.id))!;
    expect(after.chunks.map((c) => [c.id, c.firstPosition, c.rowCount, c.firstRow, c.lastRow])).toEqual([
      [1, 0, 4, 2, 5],
      [2, 4, 3, 6, 8],
    ]);
    expect(await store.getPayload(job.id, 0)).toBeUndefined();
    const halves = await Promise.all([store.getPayload(job.id, 1), store.getPayload(job.id, 2)]);
    const csvRows = halves.flatMap((p) => (p?.body.format === 'csv' ? Papa.parse<string[]>(p.body.csv).data.slice(1) : []));
    expect(csvRows.map((r) => r[0])).toEqual(rows(7).map((r) => r[0]));
    expect(halves.flatMap((p) => p?.rowNumbers)).toEqual([2, 3, 4, 5, 6, 7, 8]);
  });

  it("keeps the Ready step's foresight of each row with the rows as sent, and with each half of a split chunk", async () => {
    const store = openStore();
    const csv = ['tracking_number,reference', ...rows(5).map((r) => `${r[0]},R${r[0]}`)].join('\r\n');
    const job = await store.createJob({
      source: { kind: 'file', fileName: 'f.csv', size: null, contentHash: null },
      serviceUrl: '',
      rowsRead: 5,
      numbering: 'Line',
      skipped: [],
      rows: { format: 'csv-chunks', headers: ['tracking_number', 'reference'], chunks: [{ csv, rowNumbers: [2, 3, 4, 5, 6], withoutReference: 0, foreseen: 'cucud' }] },
      chunkRows: 5,
    });
    expect((await store.getPayload(job.id, 0))?.foreseen).toBe('cucud');
    expect(await store.splitChunk(job.id, 0)).toBe(true);
    expect([(await store.getPayload(job.id, 1))?.foreseen, (await store.getPayload(job.id, 2))?.foreseen]).toEqual(['cuc', 'ud']);
  });

  it('will not split a one-row chunk', async () => {
    const store = openStore();
    const job = await store.createJob(newJob(1, 10));
    expect(await store.splitChunk(job.id, 0)).toBe(false);
  });

  it('offers Resend or Skip only for unknown chunks, and Skip counts the rows as skipped', async () => {
    const store = openStore();
    const job = await store.createJob(newJob(4, 2));
    await events(store, job.id, [0, 1].flatMap((chunkId): JobEvent[] => [{ type: 'claim', chunkId, at: 1 }, { type: 'lost', chunkId, error: 'No answer', at: 1 }]));
    await store.resendChunk(job.id, 0);
    await store.skipChunk(job.id, 1);
    await store.skipChunk(job.id, 0); // no longer unknown: nothing happens
    const after = (await store.getJob(job.id))!;
    expect(after.chunks.map((c) => c.state.status)).toEqual(['pending', 'skipped']);
  });

  it('cancel skips what was not sent and keeps accepted batches to watch', async () => {
    const store = openStore();
    const job = await store.createJob(newJob(4, 2));
    await events(store, job.id, [{ type: 'claim', chunkId: 0, at: 1 }, { type: 'accepted', chunkId: 0, batch: headline('b1', 2), at: 1 }]);
    const cancelled = await store.cancelJob(job.id);
    expect(cancelled.runState).toBe('cancelled');
    expect(cancelled.chunks.map((c) => c.state.status)).toEqual(['accepted', 'skipped']);
    expect(cancelled.finishedAt).toBeNull();
  });

  it('marks a job done when every chunk is final and every batch finished', async () => {
    const store = openStore();
    const job = await store.createJob(newJob(2, 2));
    const accepted = await events(store, job.id, [{ type: 'claim', chunkId: 0, at: 1 }, { type: 'accepted', chunkId: 0, batch: headline('b1', 2), at: 1 }]);
    expect(accepted.runState).toBe('running');
    const counts = { created: 2, updated: 0, failed: 0, withWarnings: 0, trackingFailed: 0 };
    const item = (rowNumber: number) => ({ rowNumber, creationStatus: 'created', trackingStatus: 'succeeded', shipmentId: `s${rowNumber}`, reference: null, problems: [] });
    const digest = { id: 'b1', status: 'completed', total: 2, completed: 2, failureReason: null, counts, problems: [], problemCount: 0, unmatchedItems: 0, items: [item(2), item(3)] };
    const done = await events(store, job.id, [{ type: 'polled', digest, at: 1_000 }]);
    expect(done.runState).toBe('finished');
    expect(done.finishedAt).toBe(1_000);
  });

  it('deletes a job with its payloads and outcomes', async () => {
    const store = openStore();
    const job = await store.createJob(newJob(2, 2));
    await store.saveOutcome({ jobId: job.id, batchId: 'b1', chunkId: 0, status: 'completed', failureReason: null, items: [] });
    expect(await store.getOutcomes(job.id)).toHaveLength(1);
    await store.deleteJob(job.id);
    expect(await store.getJob(job.id)).toBeUndefined();
    expect(await store.getPayload(job.id, 0)).toBeUndefined();
    expect(await store.getOutcomes(job.id)).toEqual([]);
  });

  it('cuts JSON list jobs for the list endpoint', async () => {
    const store = openStore();
    const requests = [
      { reference: 'A', tracking_number: 'MSCU1234565', tracking_type: 'container', carrier_scac: 'AUTO' },
      { reference: '', tracking_number: 'MSCU1234566', tracking_type: 'container', carrier_scac: 'AUTO' },
    ];
    const job = await store.createJob({ source: { kind: 'quick-add' }, serviceUrl: '', rowsRead: 2, numbering: 'Row', skipped: [], rows: { format: 'json', requests, rowNumbers: [1, 2] }, chunkRows: 300 });
    expect(job.endpoint).toBe('list');
    expect(job.chunks[0]!.withoutReference).toBe(1);
    expect((await store.getPayload(job.id, 0))?.body).toEqual({ format: 'json', requests });
  });
});
